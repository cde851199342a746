/* arbiter's replay page: decode the embedded frames, step through them, draw the table.
 *
 * Everything comes from the JSON in #replay-data (see arbiter/viewer/payload.py for its
 * encoding). Text from the data is only ever set with textContent or as attribute values:
 * never parsed as HTML. Each engine's drawing registers in ArbiterDraw (draw_<engine>.js);
 * an engine without one is drawn as a plain table of its view.
 */
"use strict";

var ArbiterDraw = {};

var ArbiterViewer = (function () {
  var data = null;
  var decoded = {};        // viewer key -> array of states
  var viewerKey = "";      // "" is the spectator
  var index = 0;
  var timer = null;
  var PLAY_MS = 800;

  function key(viewer) { return viewer === null ? "" : viewer; }

  /* -- building DOM (dom.js: the helpers this page and the player's page share) ------- */
  var h = ArbiterDom.h, append = ArbiterDom.append, clear = ArbiterDom.clear;
  var $ = ArbiterDom.$, zone = ArbiterDom.zone, badge = ArbiterDom.badge;

  /* -- decoding the frames ------------------------------------------------------------ */

  function clone(value) { return value === undefined ? value : JSON.parse(JSON.stringify(value)); }

  function patch(base, ops) {
    var out = clone(base);
    ops.forEach(function (op) {
      var path = op[0];
      if (!path.length) { out = clone(op[1]); return; }
      var target = out;
      for (var i = 0; i < path.length - 1; i++) target = target[path[i]];
      var last = path[path.length - 1];
      if (op.length === 1) {
        if (Array.isArray(target)) target.splice(last, 1); else delete target[last];
      } else {
        target[last] = clone(op[1]);
      }
    });
    return out;
  }

  function states(viewer) {
    var k = key(viewer);
    if (decoded[k]) return decoded[k];
    var view = data.views.filter(function (v) { return key(v.viewer) === k; })[0];
    var out = [];
    var last = [];
    var spectator = view.base === "spectator" ? states(null) : null;
    view.frames.forEach(function (frame, i) {
      var ops = frame[1] === 0 ? last : frame[1];
      var base = spectator ? spectator[i] : (i ? out[i - 1] : {});
      out.push(patch(base, ops));
      last = ops;
    });
    decoded[k] = out;
    return out;
  }

  function lines(viewer, i) {
    var view = data.views.filter(function (v) { return key(v.viewer) === key(viewer); })[0];
    return view.frames[i][0].map(function (n) { return data.strings[n]; });
  }

  function currentViewer() {
    return viewerKey === "" ? null : viewerKey;
  }

  /* -- the page ----------------------------------------------------------------------- */

  function seatLabel(seat) { return seat === null ? "the spectator" : seat; }

  function drawLog() {
    var log = $("log");
    clear(log);
    var viewer = currentViewer();
    data.entries.forEach(function (entry, i) {
      var texts = lines(viewer, i);
      var item = h("li", {"data-seq": entry[0], "data-index": i},
        h("span", {class: "seq", text: "#" + entry[0]}));
      var list = h("ul", {class: "lines"});
      if (!texts.length) list.appendChild(h("li", {class: "quiet", text: "(nothing to read)"}));
      texts.forEach(function (t) { list.appendChild(h("li", {class: "line", text: t})); });
      item.appendChild(list);
      item.addEventListener("click", function () { go(i); });
      log.appendChild(item);
    });
  }

  function markLog() {
    var log = $("log");
    var items = log.children;
    var current = null;
    for (var i = 0; i < items.length; i++) {
      var item = items[i];
      item.classList.toggle("current", i === index);
      item.classList.toggle("future", i > index);
      if (i === index) current = item;
    }
    if (current) {
      var pane = $("logpane");
      var box = pane.getBoundingClientRect(), item = current.getBoundingClientRect();
      if (item.bottom > box.bottom) pane.scrollTop += Math.min(item.bottom - box.bottom, item.top - box.top);
      else if (item.top < box.top) pane.scrollTop -= box.top - item.top;
    }
  }

  function statusLine(state, entry) {
    var parts = ["Entry #" + entry[0]];
    if (entry[1] === "genesis") parts.push("game created");
    else parts.push(entry[1] + (entry[2] ? " by " + entry[2] : ""));
    if (entry[3] !== null && entry[3] !== undefined) parts.push("turn " + entry[3]);
    if (state.status === "over") parts.push("game over");
    else if (state.status === "joining") parts.push("waiting for joins: " + state.waiting_for.join(", "));
    else if (state.prompt) parts.push("waiting for " + state.prompt.seat + " (" + state.prompt.kind + ")");
    return parts.join(" · ");
  }

  function scoreColumns(outcome) {
    var present = {};
    Object.keys(outcome.breakdown).forEach(function (seat) {
      Object.keys(outcome.breakdown[seat]).forEach(function (k) { present[k] = true; });
    });
    var declared = data.score_columns.filter(function (k) { return present[k]; });
    var rest = Object.keys(present).filter(function (k) { return declared.indexOf(k) < 0; }).sort();
    return declared.concat(rest);
  }

  function drawResult(state) {
    var box = $("result");
    clear(box);
    var outcome = state.outcome;
    if (!outcome) return;
    var columns = scoreColumns(outcome);
    var head = h("tr", null, h("th", {text: "place"}), h("th", {text: "seat"}),
      h("th", {text: "score"}), columns.map(function (c) { return h("th", {text: c}); }));
    var body = h("tbody");
    outcome.ranking.forEach(function (group, place) {
      group.forEach(function (seat) {
        var parts = outcome.breakdown[seat] || {};
        body.appendChild(h("tr", {"data-seat": seat, class: place === 0 ? "winner" : null},
          h("td", {class: "place", text: String(place + 1)}),
          h("td", {class: "seat", text: seat}),
          h("td", {class: "score", text: String(outcome.scores[seat])}),
          columns.map(function (c) {
            return h("td", {"data-part": c, text: parts[c] === undefined ? "" : String(parts[c])});
          })));
      });
    });
    var winners = outcome.winners;
    box.appendChild(h("h2", {text: "Result"}));
    box.appendChild(h("table", {id: "scores"}, h("thead", null, head), body));
    box.appendChild(h("p", {id: "winners",
      text: (winners.length === 1 ? "Winner: " : "Winners (shared): ") + winners.join(", ") + "."}));
    if (outcome.tiebreak) box.appendChild(h("p", {id: "tiebreak", text: "Tie-break: " + outcome.tiebreak}));
  }

  function drawGeneric(ctx) {
    var view = ctx.view;
    var rows = Object.keys(view).map(function (k) {
      var value = view[k];
      return h("tr", null, h("th", {text: k}),
        h("td", null, h("code", {text: typeof value === "string" ? value : JSON.stringify(value)})));
    });
    return h("table", {class: "generic"}, h("tbody", null, rows));
  }

  function render() {
    var viewer = currentViewer();
    var all = states(viewer);
    var state = all[index];
    var entry = data.entries[index];
    document.body.setAttribute("data-index", index);
    document.body.setAttribute("data-seq", entry[0]);
    document.body.setAttribute("data-viewer", viewerKey);
    $("slider").value = String(index);
    $("entry").textContent = "#" + entry[0] + " of " + data.entries[data.entries.length - 1][0];
    $("status").textContent = statusLine(state, entry);
    var table = $("table");
    clear(table);
    if (state.view === null || state.view === undefined) {
      table.appendChild(h("p", {class: "quiet", text: "The game starts when every seat has joined."}));
    } else {
      var draw = ArbiterDraw[data.engine.name] || drawGeneric;
      table.appendChild(draw({
        state: state, view: state.view, viewer: viewer, glossary: data.glossary,
        seats: data.seats, h: h, zone: zone, badge: badge
      }));
    }
    drawResult(state);
    markLog();
    $("prev").disabled = index === 0;
    $("first").disabled = index === 0;
    $("next").disabled = index === data.entries.length - 1;
    $("last").disabled = index === data.entries.length - 1;
  }

  function go(i) {
    var top = data.entries.length - 1;
    index = Math.max(0, Math.min(top, i));
    render();
  }

  function play(on) {
    if (on === undefined) on = timer === null;
    if (timer !== null) { clearInterval(timer); timer = null; }
    if (on) {
      if (index === data.entries.length - 1) go(0);
      timer = setInterval(function () {
        if (index >= data.entries.length - 1) { play(false); return; }
        go(index + 1);
      }, PLAY_MS);
    }
    var button = $("play");
    button.textContent = on ? "\u23F8\uFE0E pause" : "\u25B6\uFE0E play";
    button.setAttribute("aria-label", on ? "Pause" : "Play");
    button.setAttribute("data-playing", on ? "yes" : "no");
  }

  function jumpTurn(value) {
    var note = $("turn-note");
    var turn = parseInt(value, 10);
    note.textContent = "";
    for (var i = 0; i < data.entries.length; i++) {
      if (data.entries[i][3] === turn) { play(false); go(i); return; }
    }
    note.textContent = "no turn " + value;
  }

  function chooseViewer(value) {
    viewerKey = value;
    drawLog();
    render();
  }

  function setup() {
    data = JSON.parse($("replay-data").textContent);
    $("engine").textContent = data.engine.name + " " + data.engine.version;
    var select = $("viewer");
    data.viewers.forEach(function (v) {
      select.appendChild(h("option", {value: key(v), text: v === null ? "spectator" : v}));
    });
    viewerKey = key(data.viewers[0]);
    if (data.viewers.length > 1) $("viewer-choice").hidden = false;
    else $("viewer-note").textContent = "as seen by " + seatLabel(data.viewers[0]);
    select.value = viewerKey;
    select.addEventListener("change", function () { chooseViewer(select.value); });
    var slider = $("slider");
    slider.max = String(data.entries.length - 1);
    slider.addEventListener("input", function () { play(false); go(parseInt(slider.value, 10)); });
    $("first").addEventListener("click", function () { play(false); go(0); });
    $("prev").addEventListener("click", function () { play(false); go(index - 1); });
    $("next").addEventListener("click", function () { play(false); go(index + 1); });
    $("last").addEventListener("click", function () { play(false); go(data.entries.length - 1); });
    $("play").addEventListener("click", function () { play(); });
    $("turn-form").addEventListener("submit", function (event) {
      event.preventDefault();
      jumpTurn($("turn").value);
    });
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      var tag = target && target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var moves = {ArrowRight: 1, ArrowLeft: -1};
      if (event.key in moves) { play(false); go(index + moves[event.key]); }
      else if (event.key === "Home") { play(false); go(0); }
      else if (event.key === "End") { play(false); go(data.entries.length - 1); }
      else if (event.key === " " && tag !== "BUTTON") play();
      else return;
      event.preventDefault();
    });
    // #entry=N&viewer=S opens that entry; by default the first with a table (the setup).
    var wanted = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      var kv = pair.split("=");
      if (kv.length === 2) wanted[kv[0]] = decodeURIComponent(kv[1]);
    });
    if ("viewer" in wanted && data.viewers.some(function (v) { return key(v) === wanted.viewer; })) {
      viewerKey = wanted.viewer;
      select.value = viewerKey;
    }
    var opening = states(currentViewer());
    index = 0;
    while (index < opening.length - 1 && !opening[index].view) index++;
    if ("entry" in wanted) {
      var seq = parseInt(wanted.entry, 10);
      data.entries.forEach(function (e, i) { if (e[0] === seq) index = i; });
    }
    drawLog();
    render();
  }

  document.addEventListener("DOMContentLoaded", setup);

  return {
    h: h, zone: zone, badge: badge, clear: clear,
    go: go, play: play, states: states,
    get index() { return index; }
  };
})();
