// Organiser pages: follow the pairing task's progress (and open the round paired); result
// entry with one tap per game (the usual termination proposed) and keyboard shortcuts.
(function () {
  var box = document.querySelector("[data-status-url]");
  if (box) {
    var bar = box.querySelector(".progress-bar");
    var text = box.querySelector("[data-status-text]");
    // A small field is paired before the first second is out: ask soon, then less often.
    var delays = [150, 350, 700], timer = null, asked = 0;
    var stop = function () { timer = false; };
    var again = function () { if (timer !== false) timer = setTimeout(ask, asked < delays.length ? delays[asked++] : 1000); };
    var ask = function () {
      fetch(box.getAttribute("data-status-url"), { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (s) {
          if (bar && s.percent !== undefined) { bar.style.width = s.percent + "%"; bar.setAttribute("aria-valuenow", s.percent); bar.textContent = s.percent + "%"; }
          if (text && s.text !== undefined) text.textContent = s.text;
          if (s.state === "done" && s.round && box.getAttribute("data-round-base")) {
            stop();
            window.location.href = box.getAttribute("data-round-base") + s.round + "/";
          } else if (s.state === "done" || s.state === "error" || s.state === "failed" || s.state === "idle") { stop(); window.location.reload(); }
          else again();
        })
        .catch(again);
    };
    again();
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
  // In the results table a result is one tap (a row of radio buttons). A result chosen
  // proposes the usual termination while none is chosen: the move sheet's own when it has the
  // same result, else a win at home, a draw with the cards used up, 0-0 by forfeit. On a
  // result, the keys 1, 0 and = choose it and move on to the termination.
  var USUAL = { "1-0": "home", "0-1": "home", "1/2-1/2": "cards", "0-0": "forfeit" };
  // On a sheet under way (turns, no result yet) only the moves can still bring a game home,
  // block it or use up the cards: a result entered now is a resignation or an agreement.
  var UNDER_WAY = { "1-0": "resign", "0-1": "resign", "1/2-1/2": "agreement", "0-0": "forfeit" };
  var BY_MOVES = ["home", "blocked", "cards"];
  document.querySelectorAll("[data-result]").forEach(function (group) {
    var cell = group.closest("td");
    var termination = cell && cell.nextElementSibling ? cell.nextElementSibling.querySelector("select[data-termination]") : null;
    var sheet = (group.getAttribute("data-sheet") || "").split(" ");
    var underWay = !sheet[0] && parseInt(group.getAttribute("data-sheet-plies") || "0", 10) > 0;
    // The terminations a result allows (games/engine/vocabulary.py consistent()).
    function fits(result, t) {
      if (underWay && BY_MOVES.indexOf(t) !== -1) return false;
      if (result === "0-0") return t === "forfeit";
      if (t === "cards" || t === "agreement") return result === "1/2-1/2";
      if (t === "home" || t === "blocked" || t === "resign" || t === "forfeit") return result !== "1/2-1/2";
      return true;
    }
    function propose(result) {
      if (!termination) return;
      if (!result) { termination.value = ""; return; }
      if (termination.value && fits(result, termination.value)) return;
      termination.value = sheet[0] === result && sheet[1] ? sheet[1]
        : ((underWay ? UNDER_WAY : USUAL)[result] || "");
    }
    group.addEventListener("change", function (e) { propose(e.target.value); });
    group.addEventListener("keydown", function (e) {
      var map = { "1": "1-0", "0": "0-1", "=": "1/2-1/2", "5": "1/2-1/2" };
      if (!map[e.key]) return;
      var radio = group.querySelector("input[value='" + map[e.key] + "']");
      if (!radio) return;
      e.preventDefault();
      radio.checked = true;
      propose(radio.value);
      if (termination) termination.focus();
    });
  });
})();
