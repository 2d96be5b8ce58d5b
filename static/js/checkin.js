// Entrants page: checking in the arrivals. The list filters as one types (name, club or
// starting number; any script, any case, accents aside — as the server's search does), Enter
// checks in the one player left to check in, and a check-in updates its row and the count in place: the
// page keeps its place. Without JavaScript the search is a GET form and each check-in a plain
// POST that comes back to the same player (the row's anchor).
(function () {
  var panel = document.querySelector("[data-check-in-panel]");
  var list = document.getElementById("entrants");
  if (!panel || !list || !window.fetch || !window.FormData) return;
  var box = panel.querySelector("[data-check-in-query]");
  var help = panel.querySelector("[data-check-in-help]");
  var shown = panel.querySelector("[data-shown-count]");
  var say = panel.querySelector("[data-check-in-message]");
  var checked = panel.querySelector("[data-checked-count]");
  var expected = panel.querySelector("[data-expected-count]");
  panel.querySelectorAll("[data-no-js]").forEach(function (el) { el.hidden = true; });
  help.hidden = false;

  var key = function (text) {
    return (text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  };
  var rows = function () {
    return Array.prototype.slice.call(list.querySelectorAll("li[data-entrant]"));
  };
  // Every word typed begins a word of the row's number, name or club, in any order
  // ("иван ан" and "ан иван" both find Анна Иванова).
  var words = function (text) { return key(text).split(/[\s\-'’.,()]+/).filter(Boolean); };
  var filter = function () {
    var typed = words(box.value);
    var all = rows();
    var visible = all.filter(function (row) {
      var own = words(row.getAttribute("data-search"));
      var match = typed.every(function (w) {
        return own.some(function (o) { return o.lastIndexOf(w, 0) === 0; });
      });
      row.hidden = !match;
      return match;
    });
    shown.textContent = typed.length ? visible.length + " / " + all.length : "";
    return visible;
  };
  var tell = function (text, ok) {
    say.textContent = text;
    say.className = "small mt-2 " + (ok ? "text-success" : "text-danger");
  };

  var send = function (form, button) {
    var data = new FormData(form);
    if (button && button.name) data.append(button.name, button.value);
    var row = form.closest("li[data-entrant]");
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    // getAttribute: the form's field named "action" hides the form's action property.
    return fetch(form.getAttribute("action") || window.location.pathname, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        tell(answer.message + (answer.stale_text ? " " + answer.stale_text : ""), answer.ok);
        if (answer.row && row) {
          var holder = document.createElement("template");
          holder.innerHTML = answer.row.trim();
          var fresh = holder.content.firstElementChild;
          fresh.hidden = row.hidden;
          row.replaceWith(fresh);
        } else {
          buttons.forEach(function (b) { b.disabled = false; });
        }
        if (answer.checked_in !== undefined) {
          checked.textContent = answer.checked_in;
          expected.textContent = answer.expected;
        }
        return answer.ok;
      })
      .catch(function () {
        // No answer the page can read: send the form the plain way.
        if (button && button.name) {
          var hidden = document.createElement("input");
          hidden.type = "hidden";
          hidden.name = button.name;
          hidden.value = button.value;
          form.appendChild(hidden);
        }
        form.submit();
      });
  };

  list.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-check-in]");
    if (!form) return;
    event.preventDefault();
    send(form, event.submitter).then(function (ok) {
      if (ok && box.value.trim()) { box.focus(); box.select(); }  // ready for the next one
    });
  });

  box.addEventListener("input", filter);
  box.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { box.value = ""; filter(); return; }
    if (event.key !== "Enter") return;
    event.preventDefault();  // never send the search form: the list is filtered already
    var visible = filter();
    // The one shown who is still to check in (those checked in already do not count).
    var waiting = visible.filter(function (row) {
      return !row.hasAttribute("data-checked-in") && !row.hasAttribute("data-withdrawn");
    });
    if (waiting.length !== 1) {
      if (visible.length === 1) {  // checked in already: nothing to do
        tell(visible[0].querySelector("a").textContent + " ✓", true);
        box.select();
      } else {
        tell(help.getAttribute(waiting.length ? "data-many" : "data-none"), false);
      }
      return;
    }
    var row = waiting[0];
    var choices = row.querySelectorAll("[data-check-in-button]");
    if (choices.length === 1) {
      send(choices[0].form, choices[0]).then(function (ok) { if (ok) box.select(); });
    } else if (choices.length) {
      choices[0].focus();  // a late entry: the organiser chooses how the missed rounds score
    }
  });
  if (box.value) filter();
})();
