// Step through a game on its public page: buttons, arrow keys, the sheet's links and the
// address (#ply-N, also when changed on an open page). The server drew every position's layer
// of the board; this swaps them and fills the side panels with that ply's hands, home and bar.
// The board can be shown from Black's side (remembered in this browser). CSP: no inline code.
(function () {
  var el = document.getElementById("replay-frames");
  var svg = document.querySelector("#replay-board svg");
  if (!el || !svg) return;
  var frames = JSON.parse(el.textContent);
  var where = document.getElementById("replay-where");
  var flipButton = document.getElementById("replay-flip");
  var body = svg.querySelector(".board-body");
  var height = parseFloat(svg.getAttribute("data-height") || "460");
  var parser = new DOMParser();
  var last = frames.length - 1;
  var current = last;
  var FLIP_KEY = "nardy-replay-flip";
  var flipped = false;
  try { flipped = window.localStorage.getItem(FLIP_KEY) === "black"; } catch (e) { flipped = false; }

  // Black's view: the board mirrored top to bottom (Black's home comes bottom right), every
  // text mirrored back around its own centre so that it reads upright.
  function applyFlip() {
    if (!body) return;
    if (flipped) body.setAttribute("transform", "matrix(1 0 0 -1 0 " + height + ")");
    else body.removeAttribute("transform");
    svg.querySelectorAll("text").forEach(function (t) {
      var y = parseFloat(t.getAttribute("y") || "0");
      if (flipped) t.setAttribute("transform", "matrix(1 0 0 -1 0 " + 2 * y + ")");
      else t.removeAttribute("transform");
    });
    svg.classList.toggle("flipped", flipped);
    if (flipButton) flipButton.setAttribute("aria-pressed", flipped ? "true" : "false");
  }

  function chip(card, count) {
    var s = document.createElement("span");
    s.className = "badge text-bg-secondary card-chip";
    s.textContent = card + (count > 1 ? " ×" + count : "");
    return s;
  }

  function panels(f, i) {
    document.querySelectorAll(".replay-sides [data-side]").forEach(function (card) {
      var side = card.getAttribute("data-side");
      function part(name) { return card.querySelector('[data-p="' + name + '"]'); }
      var home = part("home"), bar = part("bar"), received = part("received");
      var hand = part("hand"), move = part("to_move"), clock = part("clock");
      if (home) home.textContent = String(f[side + "_home"]);
      if (bar) bar.textContent = String(f[side + "_bar"]);
      if (received) received.textContent = f[side + "_received"] || "–";
      if (hand) {
        hand.textContent = "";
        (f[side + "_cards"] || []).forEach(function (pair) {
          hand.appendChild(chip(pair[0], pair[1]));
          hand.appendChild(document.createTextNode(" "));
        });
      }
      if (move) move.hidden = f.to_move !== side;
      card.classList.toggle("border-primary", f.to_move === side);
      // The clocks shown are the game's now: hidden while an earlier ply is shown.
      if (clock) clock.hidden = i !== last;
    });
  }

  function show(i, keepAddress) {
    i = Math.max(0, Math.min(last, i));
    current = i;
    var f = frames[i];
    var doc = parser.parseFromString('<svg xmlns="http://www.w3.org/2000/svg">' + f.layer + "</svg>", "image/svg+xml");
    var old = svg.querySelector(".layer");
    var fresh = document.importNode(doc.documentElement.firstElementChild, true);
    if (old) old.parentNode.replaceChild(fresh, old); else (body || svg).appendChild(fresh);
    applyFlip();
    if (where) {
      where.textContent = (where.getAttribute("data-template") || "{n}/{total}")
        .replace("{n}", String(i)).replace("{total}", String(last));
    }
    document.querySelectorAll("#replay-info [data-f]").forEach(function (d) {
      var key = d.getAttribute("data-f");
      var value = key === "turn" ? (f.turn ? f.side + " " + f.turn : "–") : f[key];
      d.textContent = value === "" || value === undefined ? "–" : String(value);
    });
    panels(f, i);
    document.querySelectorAll(".ply-link").forEach(function (a) {
      var on = parseInt(a.getAttribute("data-ply"), 10) === i;
      a.classList.toggle("current-ply", on);
      if (on) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current");
    });
    if (!keepAddress) {
      var url = location.pathname + location.search + (i === last ? "" : "#ply-" + i);
      history.replaceState(null, "", url);
    }
  }
  function fromHash() {
    var m = /^#ply-(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  var moves = { first: function () { return 0; }, prev: function () { return current - 1; },
    next: function () { return current + 1; }, last: function () { return last; } };
  document.querySelectorAll("[data-step]").forEach(function (b) {
    b.addEventListener("click", function () { show(moves[b.getAttribute("data-step")]()); });
  });
  document.querySelectorAll(".ply-link").forEach(function (a) {
    a.addEventListener("click", function (e) {
      e.preventDefault();
      show(parseInt(a.getAttribute("data-ply"), 10));
    });
  });
  // The analysis graph below the game: a click on a ply shows it and brings the board up.
  document.querySelectorAll(".graph-ply").forEach(function (a) {
    a.addEventListener("click", function (e) {
      e.preventDefault();
      show(parseInt(a.getAttribute("data-ply"), 10));
      var board = document.getElementById("replay-board");
      if (board && board.scrollIntoView) board.scrollIntoView({ block: "start", behavior: "smooth" });
    });
  });
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  // A new #ply-N typed in the address bar or followed from a link on the open page.
  window.addEventListener("hashchange", function () {
    var n = fromHash();
    show(n === null ? last : n, true);
  });
  if (flipButton) {
    flipButton.addEventListener("click", function () {
      flipped = !flipped;
      try { window.localStorage.setItem(FLIP_KEY, flipped ? "black" : "white"); } catch (e) { /* private mode */ }
      applyFlip();
    });
  }
  var start = fromHash();
  show(start === null ? last : start, true);
})();
