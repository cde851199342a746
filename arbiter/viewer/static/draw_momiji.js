/* Momiji's table: the deck, the garden, the discard pile, the objectives in the middle
 * and the torii count; then each seat's acorns, hand (a size, or the faces for the seat
 * viewing, plus the cards everyone saw arrive), piles (top card; a torii when closed),
 * landscapes (used or not) and objectives. Leaves are coloured by type and show their
 * value and acorn corners (the glossary reads them from the card code).
 */
ArbiterDraw.momiji = function (ctx) {
  var h = ctx.h, view = ctx.view, glossary = ctx.glossary;

  function leaf(code, extra) {
    var row = glossary[code];
    if (!row) return h("div", {class: "leaf unknown", "data-card": code}, h("span", {class: "leaf-type", text: code}));
    var corners = (row.left ? "\u25CF" : "\u00B7") + " " + (row.right ? "\u25CF" : "\u00B7");
    return h("div", {class: "leaf type-" + row.type + (extra ? " " + extra : ""), "data-card": code,
      title: row.type + " " + row.value + (row.left || row.right ? ", acorn corner" : "")},
      h("span", {class: "leaf-corners", text: corners}),
      h("span", {class: "leaf-value", text: String(row.value)}),
      h("span", {class: "leaf-type", text: row.type}));
  }

  function leaves(codes, extra) { return (codes || []).map(function (c) { return leaf(c, extra); }); }

  function objective(id) {
    var row = view.objective_texts[id] || {name: id, text: ""};
    return h("div", {class: "token", "data-objective": id, title: row.text},
      h("span", {class: "token-name", text: row.name}), h("span", {class: "token-text", text: row.text}));
  }

  var root = h("div", {class: "game momiji"});
  var t = view.turn;
  var centre = h("div", {class: "centre"});
  centre.appendChild(h("div", {class: "zone", "data-zone": "deck"},
    h("span", {class: "zone-label", text: "Deck"}),
    h("div", {class: "cards"}, h("div", {class: "leaf back pile"},
      h("span", {class: "deck-count", text: String(view.deck)}), h("span", {class: "leaf-type", text: "cards"})))));
  centre.appendChild(ctx.zone("garden", "Garden", leaves(view.garden), "empty garden"));
  var discard = view.discard || [];
  centre.appendChild(h("div", {class: "zone", "data-zone": "discard"},
    h("span", {class: "zone-label", text: "Discard (" + discard.length + ")"}),
    h("div", {class: "cards"}, discard.length ? leaf(discard[discard.length - 1], "top") : h("span", {class: "empty", text: "—"}),
      discard.length > 1 ? h("span", {class: "chips"}, discard.slice(0, -1).reverse().map(function (c) {
        var row = glossary[c];
        return h("span", {class: "chip type-" + (row ? row.type : "unknown"), "data-card": c, text: row ? row.type + " " + row.value : c});
      })) : null)));
  centre.appendChild(ctx.zone("objectives", "Objectives", (view.objectives || []).map(objective), "none left"));
  var facts = h("ul", {class: "facts"},
    h("li", {text: "Turn " + t.number + ": " + t.seat + " (" + t.phase + "), hand limit " + t.limit}),
    h("li", {text: "Torii: " + view.torii.closed + " of " + view.torii.limit + " piles closed"}));
  if (view.ended) facts.appendChild(h("li", {class: "end", text: "The game ended: " + view.ended}));
  centre.appendChild(facts);
  root.appendChild(centre);

  var result = view.result;
  var players = h("div", {class: "players"});
  view.seats.forEach(function (seat) {
    var p = view.players[seat];
    var piles = p.piles.map(function (pile) {
      return h("div", {class: "pile-stack" + (pile.closed ? " closed" : ""), "data-type": pile.type},
        leaf(pile.top), h("span", {class: "pile-label", text: pile.type + (pile.closed ? ", closed by a torii" : "")}));
    });
    var lands = p.landscapes.map(function (x) {
      var row = view.landscapes[x.id] || {name: x.id, text: ""};
      return h("div", {class: "landscape" + (x.used ? " used" : ""), "data-landscape": x.id, title: row.text},
        h("span", {class: "token-name", text: row.name}), h("span", {class: "token-text", text: x.used ? "used" : row.text}));
    });
    var panel = h("div", {class: "player" + (seat === t.seat ? " current" : "") + (seat === ctx.viewer ? " you" : ""),
      "data-seat": seat},
      h("div", {class: "player-head"},
        h("span", {class: "seat-name", text: seat + (seat === ctx.viewer ? " (you)" : "")}),
        seat === t.seat ? h("span", {class: "turn-mark", text: "to play"}) : null,
        ctx.badge("hand-count", "hand", p.hand_size),
        ctx.badge("acorns", "acorns", p.acorns)),
      h("div", {class: "zones"},
        p.hand ? ctx.zone("hand", "Hand", leaves(p.hand), "empty")
          : ctx.zone("known", "Seen in hand", leaves(p.known), "nothing seen"),
        ctx.zone("piles", "Piles", piles, "no pile yet"),
        ctx.zone("landscapes", "Landscapes", lands),
        ctx.zone("own-objectives", "Objectives", p.objectives.map(objective), "none")));
    if (result && result.seats && result.seats[seat]) {
      var b = result.seats[seat].breakdown;
      panel.appendChild(h("p", {class: "score-notes", text: "Score " + result.scores[seat] +
        " — piles " + b.piles + ", objectives " + b.objectives + ", acorns " + b.acorns}));
    }
    players.appendChild(panel);
  });
  root.appendChild(players);
  return root;
};
