// A finished game's analysis while the engine works on it: poll its progress (a small JSON,
// games:analysis_status), move the progress bar, and reload the page once it is done
// (CSP: no inline scripts). A failed analysis is said in place, without reloading.
(function () {
  var root = document.querySelector("[data-analysis-url]");
  if (!root) return;
  var state = root.getAttribute("data-analysis-state");
  if (state !== "queued" && state !== "running") return;
  var url = root.getAttribute("data-analysis-url");
  var bar = root.querySelector("[data-analysis-progress]");
  var text = root.querySelector("[data-analysis-text]");
  var every = 1500;
  var timer = null;
  function stop() { if (timer) { clearInterval(timer); timer = null; } }
  function poll() {
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        if (bar && typeof data.percent === "number") {
          bar.value = data.percent;
          bar.textContent = data.percent + "%";
        }
        if (data.state === "done") {
          stop();
          window.location.reload();
        } else if (data.state === "failed" || data.state === "none") {
          stop();
          if (text) text.textContent = text.getAttribute("data-failed-text");
          if (bar) bar.hidden = true;
        }
      })
      .catch(function () { /* offline for a moment: try again later */ });
  }
  timer = setInterval(poll, every);
  poll();
})();
