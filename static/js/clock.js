// The clock at the board. The server keeps the time: this page shows it counting down, sends
// a turn when the mover presses their clock, and asks the server whenever the time shown runs
// out or the connection comes back. A reload shows the clock as the server has it.
(function () {
  var root = document.getElementById("clock-root");
  if (!root) return;
  var csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  var stateUrl = root.getAttribute("data-state-url");
  var actionUrl = root.getAttribute("data-action-url");
  var running = root.getAttribute("data-running") || null;
  var toMove = root.getAttribute("data-to-move");
  var ply = root.getAttribute("data-ply");
  var version = root.getAttribute("data-version");
  var over = root.getAttribute("data-over") === "1";
  var errorBox = document.getElementById("clock-error");
  var offline = document.getElementById("clock-offline");
  var input = document.getElementById("id_text");
  var buttons = Array.prototype.slice.call(root.querySelectorAll(".clock-btn"));
  var base = {};
  var since = performance.now();
  var asking = false;

  buttons.forEach(function (b) {
    var ms = b.getAttribute("data-ms");
    base[b.getAttribute("data-side")] = ms === "" ? null : parseInt(ms, 10);
  });
  // One time per clock: the big button and the side card show the same value, from here.
  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function left(side) {
    var ms = base[side];
    if (ms === null || ms === undefined) return null;
    return side === running ? ms - (performance.now() - since) : ms;
  }
  function tick() {
    buttons.forEach(function (b) {
      var side = b.getAttribute("data-side");
      var ms = left(side);
      if (ms === null) return;
      root.querySelectorAll("[data-clock-of='" + side + "']").forEach(function (el) {
        el.textContent = fmt(ms);
      });
      b.classList.toggle("low", ms < 60000);
      if (ms <= 0 && side === running && !over) ask();
    });
  }
  function showError(text) {
    errorBox.textContent = text;
    errorBox.classList.toggle("d-none", !text);
  }
  function apply(state) {
    offline.classList.add("d-none");
    if (String(state.version) !== version || (state.result !== "*" && !over)) {
      window.location.reload();
      return;
    }
    base.white = state.white_ms; base.black = state.black_ms;
    running = state.running; since = performance.now();
  }
  function ask() {
    if (asking) return;
    asking = true;
    fetch(stateUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(apply)
      .catch(function () { offline.classList.remove("d-none"); })
      .then(function () { asking = false; });
  }
  // One press at a time: a second tap on the clock (or a double tap) while the first is on
  // its way sends nothing more; the page reloads when the server has answered.
  var sending = false;
  function send(fields) {
    if (sending) return;
    sending = true;
    post(fields);
  }
  function post(fields) {
    var body = new FormData();
    Object.keys(fields).forEach(function (k) { body.append(k, fields[k]); });
    body.append("ply", ply);
    return fetch(actionUrl, {
      method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": csrf }
    }).then(function (r) {
      return r.json().then(function (data) {
        if (r.ok) { window.location.reload(); return; }
        sending = false;
        showError(data.error || "");
        apply(data);
      });
    }).catch(function () {
      // The request may or may not have arrived: the ply number makes sending again safe.
      offline.classList.remove("d-none");
      setTimeout(function () { post(fields); }, 2000);
    });
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      if (b.getAttribute("data-side") !== toMove) { showError(root.getAttribute("data-msg-not-yours")); return; }
      var text = input ? input.value.trim() : "";
      if (!text) { showError(root.getAttribute("data-msg-no-move")); return; }
      showError("");
      send({ action: "turn", text: text });
    });
  });
  root.querySelectorAll("[data-clock-action]").forEach(function (b) {
    b.addEventListener("click", function () { send({ action: b.getAttribute("data-clock-action") }); });
  });
  // Ending the game (resignation, a draw agreed, a disagreement) asks first.
  root.querySelectorAll("button[data-ask]").forEach(function (b) {
    b.addEventListener("click", function (event) {
      if (!window.confirm(b.getAttribute("data-ask"))) event.preventDefault();
    });
  });
  // A move made on the board answers "choose a card and move first": that message goes.
  document.addEventListener("play-complete", function () { showError(""); });
  setInterval(tick, 200);
  setInterval(ask, 5000);
  window.addEventListener("online", ask);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) ask(); });
  tick();
})();
