// Spaced repetition of a player's exercises, kept in this browser (localStorage; the pages
// work without it: a single exercise is answered and checked by the server). An exercise
// answered wrongly comes back after 1 day; answered right when due, after 3 days, then 7,
// then it is learnt. An exercise answered right the first time is learnt at once.
// CSP: no inline code.
(function () {
  var KEY = "nardy-training";
  var DAY = 24 * 3600 * 1000;
  var STEPS = [1, 3, 7]; // days before an exercise comes back, box by box
  function load() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
  }
  function save(data) {
    try { window.localStorage.setItem(KEY, JSON.stringify(data)); } catch (e) { /* private mode */ }
  }
  var now = Date.now();

  // After an answer: schedule the exercise.
  var answered = document.querySelector("[data-exercise][data-answered]");
  if (answered) {
    var id = answered.getAttribute("data-exercise");
    var right = answered.getAttribute("data-answered") === "right";
    var data = load();
    var entry = data[id];
    if (!right) {
      data[id] = { box: 1, due: now + STEPS[0] * DAY };
    } else if (entry && entry.box && entry.box < STEPS.length) {
      data[id] = { box: entry.box + 1, due: now + STEPS[entry.box] * DAY };
    } else {
      data[id] = { box: STEPS.length + 1, learnt: true };
    }
    save(data);
  }

  // The list of a player's exercises: when each comes back, and which one to do next.
  var list = document.querySelector("[data-training-list]");
  if (!list) return;
  var data = load();
  var due = [], fresh = [], done = 0;
  list.querySelectorAll("tr[data-exercise]").forEach(function (row) {
    var id = row.getAttribute("data-exercise");
    var cell = row.querySelector("[data-when]");
    var entry = data[id];
    var text;
    if (!entry) {
      fresh.push(row);
      text = cell.getAttribute("data-new");
      row.setAttribute("data-state", "new");
    } else if (entry.learnt) {
      done += 1;
      text = cell.getAttribute("data-learnt");
      row.setAttribute("data-state", "learnt");
    } else if (entry.due <= now) {
      due.push(row);
      text = cell.getAttribute("data-due");
      row.setAttribute("data-state", "due");
    } else {
      var days = Math.max(1, Math.ceil((entry.due - now) / DAY));
      text = days === 1 ? cell.getAttribute("data-tomorrow")
        : cell.getAttribute("data-later").replace("{n}", String(days));
      row.setAttribute("data-state", "later");
    }
    cell.textContent = text;
  });
  var next = list.querySelector("[data-training-next]");
  var pick = due[0] || fresh[0];
  if (next) {
    if (pick) {
      next.setAttribute("href", pick.getAttribute("data-url"));
    } else {
      var note = document.createElement("span");
      note.className = "d-block small text-muted mt-1";
      note.setAttribute("data-training-nothing", "");
      note.textContent = next.getAttribute("data-done-text");
      next.parentNode.insertBefore(note, next.nextSibling);
    }
  }
  var summary = list.querySelector("[data-training-summary]");
  if (summary) {
    summary.textContent = summary.getAttribute("data-template")
      .replace("{due}", String(due.length)).replace("{new}", String(fresh.length))
      .replace("{done}", String(done));
  }
})();
