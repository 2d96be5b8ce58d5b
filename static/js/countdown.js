// Countdowns to a tournament's next round (CSP: no inline scripts). The server writes every
// time on the page; this only adds "Round 3 starts in 1 h 12 min" and marks the rounds
// started, from the browser's clock. Texts come translated from the page's data-fmt-*.
(function () {
  function fmt(el, key, values) {
    var text = el.getAttribute("data-fmt-" + key) || "";
    Object.keys(values).forEach(function (k) {
      text = text.split("%(" + k + ")s").join(String(values[k]));
    });
    return text;
  }
  function units(el) {
    return el.closest("[data-fmt-hours]") || el;
  }
  function span(el, ms) {
    var u = units(el);
    var m = Math.floor(ms / 60000), h = Math.floor(m / 60), d = Math.floor(h / 24);
    if (m < 1) return fmt(u, "soon", {});
    if (d >= 1) return fmt(u, "days", { d: d, h: h % 24 });
    if (h >= 1) return fmt(u, "hours", { h: h, m: m % 60 });
    return fmt(u, "minutes", { m: m });
  }
  function schedule(root, now) {
    var out = root.querySelector("[data-countdown]");
    var next = null;
    root.querySelectorAll("[data-starts-at]").forEach(function (row) {
      var at = Date.parse(row.getAttribute("data-starts-at"));
      var past = !isNaN(at) && at <= now;
      row.classList.toggle("schedule-past", past);
      row.classList.remove("schedule-next");
      if (!past && !isNaN(at) && next === null) next = { row: row, at: at };
    });
    if (!out) return;
    if (next === null) {
      out.hidden = true;
      return;
    }
    next.row.classList.add("schedule-next");
    out.textContent = fmt(root, "next", {
      n: next.row.getAttribute("data-round"),
      t: span(root, next.at - now),
    });
    out.hidden = false;
  }
  function single(el, now) {
    var at = Date.parse(el.getAttribute("data-countdown-to"));
    if (isNaN(at)) return;
    el.textContent = at > now ? fmt(el, "in", { t: span(el, at - now) }) : fmt(el, "past", {});
    el.hidden = false;
  }
  function update() {
    var now = Date.now();
    document.querySelectorAll("[data-schedule]").forEach(function (root) { schedule(root, now); });
    document.querySelectorAll("[data-countdown-to]").forEach(function (el) { single(el, now); });
  }
  window.nardyCountdown = update;
  update();
  setInterval(update, 10000);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) update(); });
})();
