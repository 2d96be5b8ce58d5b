// The arbiter's hall view: every board of a round, kept up to date by polling the round's
// JSON with its ETag (an unchanged round answers 304 with no body) and counting the clocks
// down between answers. CSP: no inline scripts; texts come translated from the server.
(function () {
  var root = document.getElementById("hall-root");
  if (!root) return;
  var url = root.getAttribute("data-url");
  var etag = root.getAttribute("data-etag");
  var cards = document.getElementById("hall-cards");
  var template = document.getElementById("hall-card-template");
  var offline = document.getElementById("hall-offline");
  var items = JSON.parse(document.getElementById("hall-data").textContent);
  var since = performance.now();
  var flag = root.getAttribute("data-msg-flag");

  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function fill(card, g) {
    var article = card.querySelector("article");
    article.setAttribute("data-key", g.key);
    article.setAttribute("data-state", g.state);
    article.classList.toggle("attention", g.attention);
    article.classList.toggle("border-danger", g.attention);
    card.querySelectorAll("[data-f]").forEach(function (el) {
      var name = el.getAttribute("data-f");
      if (name === "problems") {
        while (el.firstChild) el.removeChild(el.firstChild);
        g.problems.forEach(function (p) {
          var li = document.createElement("li");
          li.textContent = p;
          el.appendChild(li);
        });
      } else {
        el.textContent = g[name] === null || g[name] === undefined ? "" : String(g[name]);
      }
    });
    card.querySelectorAll("[data-href]").forEach(function (a) {
      var href = g[a.getAttribute("data-href")];
      a.hidden = !href;
      if (href) a.setAttribute("href", href);
    });
    var settle = card.querySelector("[data-settle]");
    settle.hidden = !g.disputed;
    settle.querySelector("input[name=game]").value = g.game_id === null ? "" : g.game_id;
  }
  function render() {
    var fresh = document.createDocumentFragment();
    items.forEach(function (g) {
      var card = template.content.firstElementChild.cloneNode(true);
      fill(card, g);
      fresh.appendChild(card);
    });
    while (cards.firstChild) cards.removeChild(cards.firstChild);
    cards.appendChild(fresh);
    tick();
  }
  function tick() {
    var spent = performance.now() - since;
    items.forEach(function (g) {
      var card = cards.querySelector("[data-key='" + g.key + "']");
      if (!card) return;
      ["white", "black"].forEach(function (side) {
        var el = card.querySelector("[data-clock='" + side + "']");
        var ms = g[side + "_ms"];
        if (ms === null || ms === undefined) { el.textContent = "–"; return; }
        var running = g.running === side;
        var left = running ? ms - spent : ms;
        var fallen = g.fallen === side || (running && left <= 0);
        el.textContent = fmt(left) + (fallen ? " " + flag : "");
        el.classList.toggle("running", running && !fallen);
        el.classList.toggle("fallen", fallen);
        if (fallen) card.classList.add("attention", "border-danger");
      });
    });
  }
  function poll() {
    fetch(url, { cache: "no-store", credentials: "same-origin", headers: { "If-None-Match": etag } })
      .then(function (r) {
        offline.classList.add("d-none");
        if (r.status === 304 || !r.ok) return null;
        etag = r.headers.get("ETag") || etag;
        return r.json();
      })
      .then(function (data) {
        if (!data) return;
        items = data.games;
        since = performance.now();
        render();
        document.dispatchEvent(new CustomEvent("hall:data", { detail: data }));
      })
      .catch(function () {
        offline.textContent = root.getAttribute("data-msg-offline");
        offline.classList.remove("d-none");
      });
  }
  render();
  setInterval(tick, 500);
  setInterval(poll, 3000);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
