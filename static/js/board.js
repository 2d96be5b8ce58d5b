// Click entry of a turn on the board (sheet and clock pages). The server lists every legal
// play of every playable card and the orders its steps may be clicked in (the engine's own
// enumeration, the rules the server applies when the turn is sent); the page offers only
// those, moves the checkers on the board as each step is clicked (a hit blot goes to the bar),
// lets the last step be undone, and fills the notation box with the canonical text when a play
// is complete.
(function () {
  var data = document.getElementById("legal-plays");
  var wrap = document.getElementById("entry-board");
  if (!data || !wrap) return;
  var plays = JSON.parse(data.textContent);
  var positionData = document.getElementById("board-position");
  var position = positionData ? JSON.parse(positionData.textContent) : null;
  var mover = wrap.getAttribute("data-mover");
  var input = document.getElementById("id_text");
  var status = document.getElementById("click-status");
  var undo = document.getElementById("click-undo");
  var card = null;
  var prefix = [];
  var source = null;

  function msg(name) { return status ? status.getAttribute("data-msg-" + name) || "" : ""; }
  function say(text) { if (status) status.textContent = text; }
  function pointOf(g) {
    if (g.hasAttribute("data-bar")) return g.getAttribute("data-bar") === mover ? 25 : null;
    return parseInt(g.getAttribute(mover === "white" ? "data-w" : "data-b"), 10);
  }
  function stepText(s) { return (s[0] === 25 ? "bar" : s[0]) + "/" + s[1]; }

  // --- The checkers as the steps clicked so far leave them (games/board_svg.py's layer()) ---
  var svg = wrap.querySelector("svg.nardy-board");
  var geometry = svg && svg.getAttribute("data-geometry");
  var G = null;
  if (geometry) {
    var g = geometry.split(",").map(function (x) { return parseInt(x, 10); });
    G = { PW: g[0], BARW: g[1], M: g[2], H: g[3], DEPTH: g[4], R: g[5] };
    G.BAR_X = G.M + 6 * G.PW;
  }
  var NS = "http://www.w3.org/2000/svg";
  function columnX(whitePoint) {
    var col = whitePoint <= 12 ? 12 - whitePoint : whitePoint - 13;
    return G.M + col * G.PW + (col >= 6 ? G.BARW : 0);
  }
  function stack(layer, cx, top, n, colour, edge) {
    if (n <= 0) return;
    var room = G.DEPTH + 20 - 2 * G.R;
    var step = n > 1 ? Math.min(2 * G.R, Math.floor(room / Math.max(n - 1, 1))) : 0;
    var start = edge !== undefined ? edge : (top ? G.M + G.R : G.H - G.M - G.R);
    var cy = start;
    for (var i = 0; i < n; i++) {
      cy = top ? start + i * step : start - i * step;
      var c = document.createElementNS(NS, "circle");
      c.setAttribute("class", "ck ck-" + colour);
      c.setAttribute("cx", cx); c.setAttribute("cy", cy); c.setAttribute("r", G.R - 1);
      layer.appendChild(c);
    }
    if (n > 5) {
      var t = document.createElementNS(NS, "text");
      t.setAttribute("class", "ck-n ck-n-" + colour);
      t.setAttribute("x", cx); t.setAttribute("y", cy);
      t.textContent = String(n);
      layer.appendChild(t);
    }
  }
  function draw(white, black) {
    var layer = svg.querySelector(".layer");
    if (!layer) return;
    layer.querySelectorAll(".ck, .ck-n").forEach(function (e) { e.remove(); });
    for (var p = 1; p <= 24; p++) {
      var cx = columnX(p) + G.PW / 2;
      var top = p >= 13;
      if (white[p]) stack(layer, cx, top, white[p], "w");
      else if (black[25 - p]) stack(layer, cx, top, black[25 - p], "b");
    }
    var barX = G.BAR_X + G.BARW / 2;
    var half = Math.floor(G.H / 2);
    stack(layer, barX, true, black[25], "b", half - G.R - 6 - 60);
    stack(layer, barX, false, white[25], "w", half + G.R + 6 + 60);
  }
  // The position after the steps clicked: each step moves one of the mover's checkers from
  // its point (25: the bar) to another; landing on a lone opposing checker sends it to the bar.
  function show() {
    if (!position || !G) return;
    var own = position[mover].slice();
    var other = position[mover === "white" ? "black" : "white"].slice();
    prefix.forEach(function (s) {
      own[s[0]] -= 1; own[s[1]] += 1;
      if (other[25 - s[1]] === 1) { other[25 - s[1]] = 0; other[25] += 1; }
    });
    if (mover === "white") draw(own, other); else draw(other, own);
  }

  function matching() {
    var out = [];
    (plays[card] || []).forEach(function (p) {
      p.orders.forEach(function (o) {
        if (o.length < prefix.length) return;
        for (var i = 0; i < prefix.length; i++) {
          if (o[i][0] !== prefix[i][0] || o[i][1] !== prefix[i][1]) return;
        }
        out.push({ play: p, order: o });
      });
    });
    return out;
  }
  function mark() {
    show();
    if (undo) undo.disabled = !prefix.length && source === null;
    var pts = wrap.querySelectorAll(".pt");
    pts.forEach(function (g) { g.classList.remove("src", "dst", "sel"); });
    document.querySelectorAll(".card-btn").forEach(function (b) {
      b.classList.toggle("active", b.getAttribute("data-card") === card);
    });
    if (!card) return;
    var m = matching();
    var done = m.filter(function (x) { return x.order.length === prefix.length; });
    var written = [card].concat(prefix.map(stepText)).join(" ");
    if (done.length) {
      if (input) { input.value = done[0].play.text; input.dispatchEvent(new Event("input")); }
      say(msg("ready") + " " + done[0].play.text);
      wrap.dispatchEvent(new CustomEvent("play-complete", { detail: done[0].play.text, bubbles: true }));
      return;
    }
    if (input) input.value = "";
    var k = prefix.length;
    pts.forEach(function (g) {
      var p = pointOf(g);
      if (p === null || isNaN(p)) return;
      if (source === null) {
        if (m.some(function (x) { return x.order[k][0] === p; })) g.classList.add("src");
      } else {
        if (p === source) g.classList.add("sel");
        if (m.some(function (x) { return x.order[k][0] === source && x.order[k][1] === p; })) g.classList.add("dst");
      }
    });
    say(written + " — " + (source === null ? msg("card") : msg("dest")));
  }
  function reset(newCard) {
    card = newCard; prefix = []; source = null;
    if (input && newCard) input.value = "";
    mark();
  }
  document.querySelectorAll(".card-btn").forEach(function (b) {
    b.addEventListener("click", function () { reset(b.getAttribute("data-card")); });
  });
  wrap.addEventListener("click", function (e) {
    var g = e.target.closest ? e.target.closest(".pt") : null;
    if (!g || !card) return;
    var p = pointOf(g);
    if (p === null || isNaN(p)) return;
    if (source !== null && g.classList.contains("dst")) {
      prefix.push([source, p]);
      source = null;
    } else if (p === source) {
      source = null;  // a second click puts the checker back
    } else {
      var k = prefix.length;
      // Another checker that can move now becomes the one chosen; other points do nothing.
      if (matching().some(function (x) { return x.order.length > k && x.order[k][0] === p; })) source = p;
    }
    mark();
  });
  // Undo: the checker chosen is put back, or else the last step is taken back.
  if (undo) undo.addEventListener("click", function () {
    if (source !== null) source = null; else prefix.pop();
    mark();
  });
  var clear = document.getElementById("click-clear");
  if (clear) clear.addEventListener("click", function () { reset(null); if (input) input.value = ""; say(""); });
})();
