// The live multiboard: every game of a round, kept up to date by polling the round's feed
// with its ETag (an unchanged round answers 304 with no body). The feed carries each game's
// clock as stored (time left when it last changed hands, and since when the side to move
// thinks) and the delay spectators see the games with; the clocks count down here with the
// server's time (the X-Now header). CSP: no inline scripts; texts come from the server.
(function () {
  var root = document.getElementById("mb-root");
  if (!root) return;
  var url = root.getAttribute("data-url");
  var every = parseInt(root.getAttribute("data-poll-seconds") || "2", 10) * 1000;
  var flag = root.getAttribute("data-msg-flag");
  var plyText = root.getAttribute("data-msg-ply");
  var offline = document.getElementById("mb-offline");
  var data = JSON.parse(document.getElementById("mb-data").textContent);
  var etag = null;
  var offset = 0; // server time - this browser's time, in ms

  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function card(key) {
    return document.querySelector(".mb-card[data-key='" + key + "']");
  }
  function layerOf(text) {
    var doc = new DOMParser().parseFromString(
      '<svg xmlns="http://www.w3.org/2000/svg">' + text + "</svg>", "image/svg+xml");
    return document.importNode(doc.documentElement.firstElementChild, true);
  }
  function fill(el, g) {
    el.setAttribute("data-state", g.state);
    el.querySelectorAll("[data-f]").forEach(function (f) {
      var name = f.getAttribute("data-f");
      f.textContent = name === "ply_label" ? plyText.replace("{n}", g.ply) : (g[name] || "");
    });
    var link = el.querySelector("[data-href]");
    if (link && g.url) link.setAttribute("href", g.url);
    if (String(g.ply) !== el.getAttribute("data-ply")) {
      var old = el.querySelector("g.layer");
      if (old) old.parentNode.replaceChild(layerOf(g.layer), old);
      el.setAttribute("data-ply", String(g.ply));
    }
  }
  function tick() {
    var asOf = Date.now() + offset - data.delay * 60000;
    data.games.forEach(function (g) {
      var el = card(g.key);
      if (!el) return;
      ["white", "black"].forEach(function (side) {
        var clock = el.querySelector("[data-clock='" + side + "']");
        var ms = g[side + "_ms"];
        if (ms === null || ms === undefined) { clock.textContent = "–"; return; }
        var running = g.running === side && g.since !== null;
        var left = running ? ms - Math.max(0, asOf - g.since) : ms;
        clock.textContent = fmt(left) + (running && left <= 0 ? " " + flag : "");
        clock.classList.toggle("running", running && left > 0);
        clock.classList.toggle("fallen", running && left <= 0);
      });
    });
  }
  function poll() {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (r) {
        offline.classList.add("d-none");
        var now = parseInt(r.headers.get("X-Now") || "", 10);
        if (!isNaN(now)) offset = now - Date.now();
        if (r.status === 304 || !r.ok) return null;
        etag = r.headers.get("ETag") || etag;
        return r.json();
      })
      .then(function (fresh) {
        if (!fresh) { tick(); return; }
        var before = data.games.map(function (g) { return g.key; }).join(",");
        var after = fresh.games.map(function (g) { return g.key; }).join(",");
        if (before !== after || fresh.delay !== data.delay) { window.location.reload(); return; }
        data = fresh;
        data.games.forEach(function (g) { var el = card(g.key); if (el) fill(el, g); });
        tick();
      })
      .catch(function () {
        offline.textContent = root.getAttribute("data-msg-offline");
        offline.classList.remove("d-none");
      });
  }
  tick();
  poll();
  setInterval(tick, 500);
  setInterval(poll, every);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
