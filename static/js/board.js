// Click entry of a turn on the board (sheet and clock pages). The server lists every legal
// play of every playable card and the orders its steps may be clicked in; the page offers
// only those, and fills the notation box with the canonical text when a play is complete.
(function () {
  var data = document.getElementById("legal-plays");
  var wrap = document.getElementById("entry-board");
  if (!data || !wrap) return;
  var plays = JSON.parse(data.textContent);
  var mover = wrap.getAttribute("data-mover");
  var input = document.getElementById("id_text");
  var status = document.getElementById("click-status");
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
  var clear = document.getElementById("click-clear");
  if (clear) clear.addEventListener("click", function () { reset(null); if (input) input.value = ""; say(""); });
})();
