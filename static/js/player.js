// A player's own page follows the day without a reload (CSP: no inline scripts): it polls the
// page's state.json and, when the version changes — a round published, a result, a check-in,
// the schedule moved — or a time the page depends on passes (check-in opening or closing, the
// next round's start), fetches the page again and swaps its content in place. Nothing is
// swapped while the player is typing in one of its fields.
(function () {
  var root = document.getElementById("my-day");
  if (!root) return;
  var url = root.getAttribute("data-state-url");
  var seen = root.getAttribute("data-version");
  var every = parseInt(root.getAttribute("data-poll-seconds") || "20", 10) * 1000;
  var timer = null;
  var fetching = false;

  function typing() {
    var a = document.activeElement;
    return a && root.contains(a) && /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName);
  }
  function swap() {
    if (fetching || typing()) return;
    fetching = true;
    fetch(window.location.pathname, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("my-day");
        if (!fresh) return;
        root.innerHTML = fresh.innerHTML;
        ["data-version", "data-refresh-at"].forEach(function (name) {
          root.setAttribute(name, fresh.getAttribute(name) || "");
        });
        seen = root.getAttribute("data-version");
        root.setAttribute("data-swapped", String((parseInt(root.getAttribute("data-swapped") || "0", 10)) + 1));
        if (window.nardyCountdown) window.nardyCountdown();
        plan();
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { fetching = false; });
  }
  function poll() {
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && data.version !== undefined && String(data.version) !== seen) swap();
      })
      .catch(function () { /* offline for a moment: try again later */ });
  }
  function plan() {
    if (timer) clearTimeout(timer);
    timer = null;
    var at = Date.parse(root.getAttribute("data-refresh-at") || "");
    if (isNaN(at)) return;
    var wait = Math.max(1000, at - Date.now() + 1500);
    if (wait < 2147483647) timer = setTimeout(swap, wait);
  }
  setInterval(poll, every);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  plan();
})();
