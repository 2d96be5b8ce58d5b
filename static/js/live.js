// Reload a public tournament page when its results or rounds change (CSP: no inline scripts).
(function () {
  var root = document.querySelector("[data-version-url]");
  if (!root) return;
  var url = root.getAttribute("data-version-url");
  var seen = root.getAttribute("data-version");
  var every = parseInt(root.getAttribute("data-poll-seconds") || "20", 10) * 1000;
  function poll() {
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && String(data.version) !== seen) window.location.reload();
      })
      .catch(function () { /* offline for a moment: try again later */ });
  }
  setInterval(poll, every);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
