// Step through a game on its public page: buttons, arrow keys and the sheet's links. The
// server drew every position's layer of the board; this only swaps them (CSP: no inline code).
(function () {
  var el = document.getElementById("replay-frames");
  var svg = document.querySelector("#replay-board svg");
  if (!el || !svg) return;
  var frames = JSON.parse(el.textContent);
  var where = document.getElementById("replay-where");
  var parser = new DOMParser();
  var last = frames.length - 1;
  var current = last;

  function show(i) {
    i = Math.max(0, Math.min(last, i));
    current = i;
    var f = frames[i];
    var doc = parser.parseFromString('<svg xmlns="http://www.w3.org/2000/svg">' + f.layer + "</svg>", "image/svg+xml");
    var old = svg.querySelector(".layer");
    var fresh = document.importNode(doc.documentElement.firstElementChild, true);
    if (old) old.parentNode.replaceChild(fresh, old); else svg.appendChild(fresh);
    if (where) {
      where.textContent = (where.getAttribute("data-template") || "{n}/{total}")
        .replace("{n}", String(i)).replace("{total}", String(last));
    }
    document.querySelectorAll("#replay-info [data-f]").forEach(function (d) {
      var key = d.getAttribute("data-f");
      var value = key === "turn" ? (f.turn ? f.side + " " + f.turn : "–") : f[key];
      d.textContent = value === "" || value === undefined ? "–" : String(value);
    });
    document.querySelectorAll(".ply-link").forEach(function (a) {
      var on = parseInt(a.getAttribute("data-ply"), 10) === i;
      a.classList.toggle("current-ply", on);
      if (on) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current");
    });
    var url = location.pathname + location.search + (i === last ? "" : "#ply-" + i);
    history.replaceState(null, "", url);
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
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  var m = /^#ply-(\d+)$/.exec(location.hash);
  show(m ? parseInt(m[1], 10) : last);
})();
