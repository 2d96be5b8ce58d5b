// The venue screen: the slides take turns, the clock shows the time where the tournament is
// played, the schedule shows the round under way (or the next one) and those after it that fit,
// each day's date once (the server marks them from the results: championship/screen.py), and
// the page reloads itself when the results change (at the end of a turn of the slides, never in
// the middle of one).
// CSP: no inline scripts.
(function () {
  var root = document.getElementById("screen");
  if (!root) return;
  var slides = Array.prototype.slice.call(document.querySelectorAll(".slide"));
  var seconds = parseInt(root.getAttribute("data-seconds") || "15", 10);
  var zone = root.getAttribute("data-zone");
  var lang = root.getAttribute("data-lang") || "en";
  var seen = root.getAttribute("data-version");
  var url = root.getAttribute("data-version-url");
  var changed = false;
  var shown = 0;
  var clock = document.getElementById("screen-clock");
  var format;
  try {
    format = new Intl.DateTimeFormat(lang, { timeZone: zone, hour: "2-digit", minute: "2-digit", hour12: false });
  } catch (e) {
    format = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hour12: false });
  }
  function tick() {
    clock.textContent = format.format(new Date());
  }
  function fit() {
    // From the round under way or the next one (else the last round) on, as many as fit on
    // the line: the rounds played are over, and none is cut by the screen's edge.
    var items = Array.prototype.slice.call(document.querySelectorAll(".sched"));
    var first = items.length - 1;
    for (var i = 0; i < items.length; i++) {
      if (!items[i].classList.contains("done")) { first = i; break; }
    }
    items.forEach(function (el, i) { el.hidden = i < first; });
    // The day once: a round on the same day as the one before it (under way, or shown with
    // its day) shows its time alone; the first one shown always has its day.
    items.forEach(function (el, i) {
      var day = el.querySelector(".sched-day");
      if (day) day.hidden = i > first && items[i - 1].getAttribute("data-date") === el.getAttribute("data-date");
    });
    var foot = document.querySelector(".screen-foot");
    var edge = foot ? foot.getBoundingClientRect().right : Infinity;
    var cut = false;
    items.forEach(function (el) {
      if (!el.hidden && (cut || el.getBoundingClientRect().right > edge)) { el.hidden = true; cut = true; }
    });
  }
  function turn() {
    if (slides.length < 2 && !changed) return;
    slides[shown].classList.remove("active");
    shown = (shown + 1) % slides.length;
    if (shown === 0 && changed) { window.location.reload(); return; }
    slides[shown].classList.add("active");
  }
  function poll() {
    fetch(url, { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && String(data.version) !== seen) {
          changed = true;
          if (slides.length < 2) window.location.reload();
        }
      })
      .catch(function () { /* the network is back at the next poll */ });
  }
  tick();
  fit();
  window.addEventListener("resize", fit);
  setInterval(tick, 1000);
  setInterval(turn, seconds * 1000);
  setInterval(poll, 20000);
})();
