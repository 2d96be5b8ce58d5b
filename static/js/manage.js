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
          if (s.state === "done" || s.state === "error" || s.state === "failed" || s.state === "idle") { clearInterval(timer); window.location.reload(); }
        })
        .catch(function () {});
    }, 1000);
  }
  // Results table: show only the boards of a number or a player, or only those without a
  // result (hidden rows keep their values and are sent unchanged).
  var filter = document.querySelector("[data-board-filter]");
  if (filter) {
    var textBox = filter.querySelector("[data-filter-text]");
    var openBox = filter.querySelector("[data-filter-open]");
    var count = filter.querySelector("[data-filter-count]");
    var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-board]"));
    var apply = function () {
      var q = textBox.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (row) {
        var match = !q || (/^\d+$/.test(q) ? row.getAttribute("data-board") === q
          : row.getAttribute("data-players").toLowerCase().indexOf(q) !== -1);
        if (openBox.checked && !row.hasAttribute("data-open")) match = false;
        row.hidden = !match;
        if (match) shown += 1;
      });
      count.hidden = !q && !openBox.checked;
      count.textContent = shown + " / " + rows.length;
    };
    textBox.addEventListener("input", apply);
    openBox.addEventListener("change", apply);
    // Enter in the search box must not send the form.
    textBox.addEventListener("keydown", function (e) { if (e.key === "Enter") e.preventDefault(); });
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
