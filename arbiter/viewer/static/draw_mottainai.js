/* Mottainai's table: the floor and deck in the middle, then each player's temple:
 * task, hand (a count, or the faces for the seat viewing), waiting area, helpers, craft
 * bench, sales, gallery and gift shop. Cards are coloured by material and show their
 * name, material and value; the engine's view says where each card is, the glossary
 * what it is. No rule is computed here.
 */
ArbiterDraw.mottainai = function (ctx) {
  var h = ctx.h, view = ctx.view, glossary = ctx.glossary;

  function card(id, extra) {
    var row = glossary[id];
    if (!row) return h("div", {class: "card unknown", "data-card": id}, h("span", {class: "card-name", text: id}));
    return h("div", {class: "card mat-" + row.material + (extra ? " " + extra : ""), "data-card": id,
      title: row.name + " (" + row.material + " " + row.value + ", " + row.task + "): " + row.text},
      h("span", {class: "card-name", text: row.name}),
      h("span", {class: "card-task", text: row.task}),
      h("span", {class: "card-foot"}, h("span", {class: "card-mat", text: row.material}),
        h("span", {class: "card-value", text: String(row.value)})));
  }

  function back(label) {
    return h("div", {class: "card back", title: label}, h("span", {class: "card-name", text: label}));
  }

  function cards(ids, extra) { return (ids || []).map(function (id) { return card(id, extra); }); }

  function covered(materials) {
    if (!materials || !materials.length) return null;
    return h("span", {class: "covered", text: "covered: " + materials.join(", ")});
  }

  var root = h("div", {class: "game mottainai"});

  // The middle of the table.
  var deck = view.deck || {};
  var centre = h("div", {class: "centre"});
  var pile = h("div", {class: "zone", "data-zone": "deck"},
    h("span", {class: "zone-label", text: "Deck"}),
    h("div", {class: "cards"},
      h("div", {class: "card back pile"}, h("span", {class: "deck-count", text: String(deck.count)}),
        h("span", {class: "card-name", text: "cards"})),
      deck.top ? card(deck.top, "face-up") : null));
  centre.appendChild(pile);
  centre.appendChild(ctx.zone("floor", "Floor", cards(view.floor), "empty floor"));
  var facts = h("ul", {class: "facts"},
    h("li", {text: "Turn " + view.turn + ": " + view.current + " (" + view.phase + ")"}),
    h("li", {text: "Game ends at " + view.works_to_end + " works in a wing, or when the deck runs out"}));
  if (view.task) {
    var t = view.task, row = glossary[t.card];
    var whose = t.owner === view.current ? "their own" : t.owner + "'s";
    facts.appendChild(h("li", {class: "doing",
      text: view.current + " performs " + whose + " " + (row ? row.task : t.material) + " task" +
        (t.total ? ": action " + Math.min(t.done + 1, t.total) + " of " + t.total : "")}));
  }
  if (view.revealed && view.revealed.cards && view.revealed.cards.length) {
    facts.appendChild(h("li", {class: "revealed"}, view.revealed.seat + " reveals ",
      h("span", {class: "cards inline"}, cards(view.revealed.cards))));
  }
  if (deck.returned_by_you && deck.returned_by_you.length) {
    facts.appendChild(h("li", null, "You returned to the deck: ",
      h("span", {class: "cards inline"}, cards(deck.returned_by_you))));
  }
  if (view.end) {
    facts.appendChild(h("li", {class: "end", text: "The game ended on turn " + view.end.turn +
      " (" + view.end.reason + ", " + view.end.seat + ")"}));
  }
  centre.appendChild(facts);
  root.appendChild(centre);

  // Each temple, in seat order.
  var result = view.result;
  var players = h("div", {class: "players"});
  view.seats.forEach(function (seat) {
    var p = view.players[seat];
    var classes = "player" + (seat === view.current ? " current" : "") + (seat === ctx.viewer ? " you" : "");
    var head = h("div", {class: "player-head"},
      h("span", {class: "seat-name", text: seat + (seat === ctx.viewer ? " (you)" : "")}),
      seat === view.current && view.phase !== "over" ? h("span", {class: "turn-mark", text: "to play"}) : null,
      p.bonus_turn ? h("span", {class: "turn-mark", text: "extra turn"}) : null,
      ctx.badge("hand-count", "hand", p.hand_count),
      ctx.badge("waiting-count", "waiting", p.waiting_count));
    var task = p.task_face_down ? back("face-down task") : (p.task ? card(p.task) : null);
    var panel = h("div", {class: classes, "data-seat": seat}, head,
      h("div", {class: "zones"},
        ctx.zone("task", "Task", task ? [task] : [], "none"),
        p.hand ? ctx.zone("hand", "Hand", cards(p.hand), "empty") : null,
        p.waiting_seen ? ctx.zone("waiting-seen", "Seen going to waiting area", cards(p.waiting_seen)) : null,
        ctx.zone("helpers", "Helpers", cards(p.helpers, "mini")),
        covered(p.covered_helpers),
        ctx.zone("craft-bench", "Craft bench", cards(p.craft_bench, "mini")),
        ctx.zone("sales", "Sales", cards(p.sales, "mini")),
        covered(p.covered_sales),
        ctx.zone("gallery", "Gallery", cards(p.gallery)),
        ctx.zone("gift-shop", "Gift shop", cards(p.gift_shop))));
    if (result && result.seats && result.seats[seat]) {
      var r = result.seats[seat], notes = [];
      Object.keys(r.backorders || {}).forEach(function (m) { notes.push("backorder " + m + " " + r.backorders[m]); });
      Object.keys(r.card_points || {}).forEach(function (c) {
        notes.push((glossary[c] ? glossary[c].name : c) + " +" + r.card_points[c]);
      });
      panel.appendChild(h("p", {class: "score-notes", text: "Score " + result.scores[seat] +
        (notes.length ? " — " + notes.join("; ") : "")}));
    }
    players.appendChild(panel);
  });
  root.appendChild(players);
  return root;
};
