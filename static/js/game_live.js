// A game in progress for spectators: polls the game's live state every 2 seconds (an ETag:
// an unchanged game answers 304 with no body), counts the running clock down between answers
// and reloads the page (cached whole per version) when a turn is entered or the game ends.
(function () {
  var root = document.getElementById("game-live");
  if (!root) return;
  var url = root.getAttribute("data-url");
  var seen = root.getAttribute("data-version");
  var etag = null;
  var state = null;
  var since = performance.now();

  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function tick() {
    if (!state) return;
    var spent = performance.now() - since;
    ["white", "black"].forEach(function (side) {
      var ms = state[side + "_ms"];
      if (ms === null || ms === undefined) return;
      var left = state.running === side ? ms - spent : ms;
      document.querySelectorAll("[data-clock-of='" + side + "']").forEach(function (el) {
        el.textContent = fmt(left);
      });
    });
  }
  function poll() {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (r) {
        if (r.status === 304 || !r.ok) return null;
        etag = r.headers.get("ETag");
        return r.json();
      })
      .then(function (data) {
        if (!data) return;
        if (String(data.version) !== seen || data.over) { window.location.reload(); return; }
        state = data;
        since = performance.now();
        tick();
      })
      .catch(function () { /* offline for a moment: try again at the next poll */ });
  }
  poll();
  setInterval(poll, 2000);
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
