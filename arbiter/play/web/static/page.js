/* arbiter play --web: the seat's table, what happened since, the decisions as buttons,
 * the move being built, and Send.
 *
 * Everything drawn comes from the server's /snapshot (the session's snapshot of the
 * seat's own state file); a pick, undo or send is a POST the server applies to the
 * session, which holds the key: nothing here signs. Text from the game is only ever set
 * with textContent or as attribute values, never parsed as HTML. The table is drawn by
 * the replay page's drawings (draw_<engine>.js register in ArbiterDraw), or as a plain
 * table of the view for an engine without one.
 */
"use strict";

var ArbiterDraw = {};

(function () {
  var shown = null;      // the snapshot on screen
  var version = 0;       // its version (the server's counter)
  var busy = false;      // a POST is on its way: further picks wait for its answer
  var lost = false;      // the server stopped answering /events

  /* -- building DOM (the replay page's dom.js: its drawings call the same) ---------- */
  var h = ArbiterDom.h, append = ArbiterDom.append, clear = ArbiterDom.clear;
  var $ = ArbiterDom.$, zone = ArbiterDom.zone, badge = ArbiterDom.badge;

  function setText(node, text) {
    // Only a real change: a live region re-announces whatever is written to it.
    if (node.textContent !== text) node.textContent = text;
  }

  /* -- talking to the server ------------------------------------------------------------ */

  function answer(response) {
    return response.text().then(function (text) {
      var body = null;
      try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
      if (!response.ok) {
        throw body && body.error ? body : {error: "the page's server refused the request (HTTP " +
          response.status + "): reload the address arbiter play printed"};
      }
      return body;
    });
  }

  function get(path) {
    return fetch(path, {cache: "no-store", credentials: "same-origin"}).then(answer);
  }

  function post(path, body) {
    return fetch(path, {
      method: "POST", cache: "no-store", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(body || {})
    }).then(answer);
  }

  /* -- drawing -------------------------------------------------------------------------- */

  function drawGeneric(ctx) {
    var view = ctx.view;
    var rows = Object.keys(view).map(function (k) {
      var value = view[k];
      return h("tr", null, h("th", {text: k}),
        h("td", null, h("code", {text: typeof value === "string" ? value : JSON.stringify(value)})));
    });
    return h("table", {class: "generic"}, h("tbody", null, rows));
  }

  function drawTable(snap) {
    var state = snap.state;
    var file = snap.preview || state;
    var table = $("table");
    clear(table);
    var note = "";
    if (snap.preview && snap.picks.length) note = "The table after your picks (not sent yet).";
    else if (snap.picks.length && snap.closed_because) {
      note = "The table before your picks: what follows depends on the referee, because " +
        snap.closed_because + ".";
    }
    setText($("board-note"), note);
    if (file.view === null || file.view === undefined) {
      table.appendChild(h("p", {class: "quiet", text: "The game starts when every seat has joined."}));
      return;
    }
    var ctx = {state: file, view: file.view, viewer: state.seat, glossary: snap.glossary || {},
      seats: state.seats, h: h, zone: zone, badge: badge};
    var draw = ArbiterDraw[state.engine.name] || drawGeneric;
    try {
      table.appendChild(draw(ctx));
    } catch (error) {
      // A drawing that cannot read this view still leaves the player a readable table.
      clear(table);
      table.appendChild(drawGeneric(ctx));
    }
  }

  function drawResult(snap) {
    var box = $("result");
    clear(box);
    var outcome = snap.state.outcome;
    if (!outcome) return;
    var present = {};
    Object.keys(outcome.breakdown).forEach(function (seat) {
      Object.keys(outcome.breakdown[seat]).forEach(function (k) { present[k] = true; });
    });
    var columns = (snap.score_columns || []).filter(function (k) { return present[k]; });
    Object.keys(present).sort().forEach(function (k) { if (columns.indexOf(k) < 0) columns.push(k); });
    var body = h("tbody");
    outcome.ranking.forEach(function (group, place) {
      group.forEach(function (seat) {
        var parts = outcome.breakdown[seat] || {};
        body.appendChild(h("tr", {"data-seat": seat, class: place === 0 ? "winner" : null},
          h("td", {text: String(place + 1)}), h("td", {class: "seat", text: seat}),
          h("td", {class: "score", text: String(outcome.scores[seat])}),
          columns.map(function (c) { return h("td", {text: parts[c] === undefined ? "" : String(parts[c])}); })));
      });
    });
    box.appendChild(h("h2", {text: "Result"}));
    box.appendChild(h("table", {id: "scores"},
      h("thead", null, h("tr", null, h("th", {text: "place"}), h("th", {text: "seat"}),
        h("th", {text: "score"}), columns.map(function (c) { return h("th", {text: c}); }))), body));
    box.appendChild(h("p", {id: "winners", text: (outcome.winners.length === 1 ? "Winner: " :
      "Winners (shared): ") + outcome.winners.join(", ") + "."}));
  }

  function statusLine(snap) {
    var parts = [];
    if (snap.timed_out) parts.push(snap.timed_out + ".");
    if (snap.sent) parts.push("Sent: " + snap.sent + ". Waiting for the referee's new state.");
    else if (snap.waiting) parts.push(capital(snap.waiting) + ".");
    else if (snap.open) {
      parts.push(snap.picks.length ? "Your turn: pick another decision, or send this move." :
        "Your turn: pick a decision (" + snap.choices.length + " to choose from).");
    } else if (snap.picks.length) parts.push("Your move is complete: send it, or undo the last pick.");
    if (snap.trouble) parts.push("(" + snap.trouble + ")");
    return parts.join(" ");
  }

  function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

  function drawStory(snap) {
    var list = $("story");
    if (snap.story_title) $("story-title").textContent = snap.story_title.replace(/:$/, "");
    clear(list);
    if (!snap.story.length) list.appendChild(h("li", {class: "quiet", text: "Nothing new."}));
    snap.story.forEach(function (item) {
      list.appendChild(h("li", {"data-entry": item.entry},
        h("span", {class: "seq", text: "#" + item.entry}), " ", h("span", {class: "line", text: item.line})));
    });
  }

  function drawBatch(snap) {
    var list = $("picks");
    clear(list);
    snap.picks.forEach(function (label) { list.appendChild(h("li", {text: label})); });
    var note = "";
    if (!snap.picks.length) note = snap.open ? "Nothing picked yet." : "";
    else if (!snap.open && snap.closed_because) note = "Complete: " + snap.closed_because + ".";
    setText($("batch-note"), note);
    $("undo").disabled = !snap.picks.length;
    $("send").disabled = !snap.picks.length;
    $("batch").hidden = !snap.picks.length && !snap.open;
  }

  function cardLines(choice) {
    return choice.cards.map(function (c) {
      return c.name + (c.type ? " (" + c.type + ")" : "") + (c.text ? ": " + c.text : "");
    }).join("\n");
  }

  function drawChoices(snap) {
    var box = $("choices");
    clear(box);
    var groups = [];
    var byKind = {};
    snap.choices.forEach(function (choice) {
      if (!byKind[choice.kind]) { byKind[choice.kind] = []; groups.push(choice.kind); }
      byKind[choice.kind].push(choice);
    });
    groups.forEach(function (kind, i) {
      var id = "kind-" + i;
      var buttons = byKind[kind].map(function (choice) {
        var lines = cardLines(choice);
        return h("button", {type: "button", class: "choice", "data-number": choice.number,
          "data-kind": kind, "aria-label": choice.number + ": " + choice.label,
          title: lines || null},
          h("span", {class: "num", "aria-hidden": "true", text: String(choice.number)}),
          h("span", {class: "label", "aria-hidden": "true", text: choice.label}),
          choice.cards.length ? h("span", {class: "card-lines", "aria-hidden": "true"},
            choice.cards.map(function (c) {
              return h("span", {class: "card-line", text: c.name + (c.type ? " · " + c.type : "")});
            })) : null);
      });
      box.appendChild(h("section", {class: "group", "aria-labelledby": id, "data-kind": kind},
        h("h3", {id: id, text: kind + " (" + byKind[kind].length + ")"}),
        h("div", {class: "buttons"}, buttons)));
    });
  }

  function draw(snap) {
    shown = snap;
    version = snap.version;
    var state = snap.state;
    document.title = "arbiter play — " + state.seat + " — " + snap.title;
    setText($("heading"), snap.title + " — game " + state.game);
    setText($("engine"), state.engine.name + " " + state.engine.version);
    setText($("you"), "you are " + state.seat);
    var body = document.body;
    body.setAttribute("data-version", snap.version);
    body.setAttribute("data-seq", state.seq);
    body.setAttribute("data-status", state.status);
    body.setAttribute("data-open", snap.open ? "yes" : "no");
    body.setAttribute("data-picks", snap.picks.length);
    body.setAttribute("data-sent", snap.sent ? "yes" : "no");
    setText($("status"), statusLine(snap));
    drawTable(snap);
    drawResult(snap);
    drawStory(snap);
    drawBatch(snap);
    drawChoices(snap);
    body.setAttribute("data-ready", "yes");
  }

  /* -- focus ----------------------------------------------------------------------------- */

  function firstChoice() { return document.querySelector("#choices button.choice"); }

  // After a pick or an undo the next decision is the next thing to do; when the move is
  // complete it is Send.
  function focusNext() {
    var target = firstChoice() || ($("send").disabled ? $("status") : $("send"));
    target.focus();
  }

  // A redraw the player did not ask for keeps their place when it still exists.
  function redrawKeepingFocus(snap) {
    var active = document.activeElement;
    var number = active && active.getAttribute("data-number");
    var id = active && active.id;
    var inside = active && $("decide").contains(active);
    draw(snap);
    if (!inside) return;
    var again = number ? document.querySelector('#choices button[data-number="' + number + '"]') :
      (id ? $(id) : null);
    if (again && !again.disabled && !again.closest("[hidden]")) again.focus();
    else focusNext();
  }

  /* -- acting ---------------------------------------------------------------------------- */

  function showError(error) {
    var text = error && error.error ? error.error : String(error);
    setText($("alert"), text);
  }

  function act(path, body, after) {
    if (busy) return Promise.resolve();
    busy = true;
    document.body.setAttribute("data-busy", "yes");
    return post(path, body).then(function (snap) {
      setText($("alert"), "");
      draw(snap);
      after(snap);
    }, function (error) {
      showError(error);
      // The game may have moved (the session then holds the new state): draw what is true.
      return get("snapshot").then(function (snap) { redrawKeepingFocus(snap); }, function () {});
    }).then(function () {
      busy = false;
      document.body.setAttribute("data-busy", "no");
    });
  }

  /* Each action names the head the page drew (and a send, the picks it confirmed), so
   the server refuses it when the table changed under the player's eyes. */
  function seenHead() { return shown && shown.state ? shown.state.head : null; }

  function pick(number) { act("pick", {number: number, head: seenHead()}, focusNext); }

  function undo() { if (shown && shown.picks.length) act("undo", {head: seenHead()}, focusNext); }

  function confirmSend() {
    if (!shown || !shown.picks.length) return;
    var list = $("confirm-picks");
    clear(list);
    shown.picks.forEach(function (label) { list.appendChild(h("li", {text: label})); });
    var n = shown.picks.length;
    setText($("confirm-note"), n + (n === 1 ? " decision" : " decisions") +
      ", signed with your key on this computer (the page never sees it) and delivered to the referee.");
    $("confirm").showModal();
    $("confirm-send").focus();
  }

  function send() {
    $("confirm").close("send");
    act("send", {head: seenHead(), picks: shown ? shown.picks.length : 0}, function () { $("status").focus(); });
  }

  /* -- keeping up with the game ---------------------------------------------------------- */

  function refresh() {
    return get("snapshot").then(function (snap) {
      if (snap.version > version) redrawKeepingFocus(snap);
    });
  }

  function listen() {
    get("events?after=" + version).then(function (event) {
      if (lost) { lost = false; setText($("alert"), ""); }
      return event.version !== version ? refresh() : null;
    }).then(listen, function () {
      if (!lost) {
        lost = true;
        setText($("alert"), "The page lost touch with arbiter play: is it still running? " +
          "(It tries again every few seconds.)");
      }
      setTimeout(listen, 3000);
    });
  }

  function setup() {
    $("choices").addEventListener("click", function (event) {
      var button = event.target.closest("button.choice");
      if (button && !busy) pick(Number(button.getAttribute("data-number")));
    });
    $("undo").addEventListener("click", undo);
    $("send").addEventListener("click", confirmSend);
    $("confirm-send").addEventListener("click", send);
    $("confirm-back").addEventListener("click", function () { $("confirm").close("back"); });
    $("confirm").addEventListener("close", function () {
      if ($("confirm").returnValue !== "send" && !$("send").disabled) $("send").focus();
      $("confirm").returnValue = "";
    });
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      var tag = target && target.tagName;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      if ($("confirm").open) return;
      if (event.key === "u" || event.key === "U") { event.preventDefault(); undo(); }
    });
    get("snapshot").then(function (snap) { draw(snap); listen(); }, function (error) {
      showError(error);
      listen();
    });
  }

  document.addEventListener("DOMContentLoaded", setup);
})();
