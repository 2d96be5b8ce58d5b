// A round's progress and the no-shows the hall proposes (games/_round_progress.html,
// games/_hall_no_shows.html). In the hall the numbers follow hall.js's answers (the
// "hall:data" event) and the page reloads when the boards proposed change; on the organisers'
// dashboard the fragment is fetched from its data-progress-url. The time the round has run
// counts on here until the round is over (every game over: the hall's answer says so, and
// the time gives way to the words the server writes then). A no-show's form is sent once
// however often it is tapped (the server also decides a board once). CSP: no inline scripts.
(function () {
  function hm(ms) {
    var m = Math.max(0, Math.floor(ms / 60000));
    return Math.floor(m / 60) + ":" + (m % 60 < 10 ? "0" : "") + (m % 60);
  }
  function tick() {
    document.querySelectorAll("[data-round-progress]").forEach(function (el) {
      var began = parseInt(el.getAttribute("data-began") || "", 10);
      var out = el.querySelector("[data-p='running']");
      if (!isNaN(began) && out) out.textContent = hm(Date.now() - began);
    });
  }
  function show(p) {
    var el = document.querySelector("[data-round-progress]");
    if (!el || !p) return;
    ["finished", "playing", "waiting"].forEach(function (name) {
      var out = el.querySelector("[data-p='" + name + "']");
      if (out) out.textContent = String(p[name]);
    });
    var finished = el.querySelector("[data-p-bar='finished']");
    var playing = el.querySelector("[data-p-bar='playing']");
    if (finished) finished.setAttribute("width", String(p.finished));
    if (playing) {
      playing.setAttribute("x", String(p.finished));
      playing.setAttribute("width", String(p.playing));
    }
    var running = el.querySelector("[data-p='running']");
    if (p.over && running) {
      var over = document.createElement("span");
      over.setAttribute("data-p", "over");
      over.textContent = el.getAttribute("data-over-text");
      running.parentNode.replaceChildren("· ", over);
      el.removeAttribute("data-began");
    }
  }
  document.addEventListener("hall:data", function (event) {
    var data = event.detail;
    show(data.progress);
    var section = document.getElementById("hall-no-shows");
    if (!section || !data.no_shows) return;
    var keys = data.no_shows.map(function (p) { return String(p.id); }).join(",");
    if (keys !== section.getAttribute("data-keys")) window.location.reload();
  });
  document.querySelectorAll("form[data-once]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.getAttribute("data-sent")) { event.preventDefault(); return; }
      form.setAttribute("data-sent", "1");
    });
  });
  document.querySelectorAll("[data-progress-url]").forEach(function (box) {
    var url = box.getAttribute("data-progress-url");
    function load() {
      fetch(url, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html !== null) { box.innerHTML = html; tick(); } })
        .catch(function () { /* offline for a moment: the next load */ });
    }
    load();
    setInterval(load, 15000);
  });
  tick();
  setInterval(tick, 20000);
})();
