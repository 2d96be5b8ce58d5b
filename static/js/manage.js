// Organiser pages: follow the pairing task's progress; keyboard shortcuts in result entry.
(function () {
  var box = document.querySelector("[data-status-url]");
  if (box) {
    var bar = box.querySelector(".progress-bar");
    var text = box.querySelector("[data-status-text]");
    var timer = setInterval(function () {
      fetch(box.getAttribute("data-status-url"), { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (s) {
          if (bar && s.percent !== undefined) { bar.style.width = s.percent + "%"; bar.setAttribute("aria-valuenow", s.percent); bar.textContent = s.percent + "%"; }
          if (text && s.text !== undefined) text.textContent = s.text;
          if (s.state === "done" || s.state === "error" || s.state === "idle") { clearInterval(timer); window.location.reload(); }
        })
        .catch(function () {});
    }, 1000);
  }
  // In the results table, typing 1, 0 or = in a result box picks the result and moves on.
  document.querySelectorAll("select[data-result]").forEach(function (select) {
    select.addEventListener("keydown", function (e) {
      var map = { "1": "1-0", "0": "0-1", "=": "1/2-1/2", "5": "1/2-1/2" };
      if (map[e.key]) {
        select.value = map[e.key];
        e.preventDefault();
        var next = select.closest("tr").querySelector("select[data-termination]");
        if (next) next.focus();
      }
    });
  });
})();
