/* Mot Coin's table: the auction in the middle (the card up for bids, the Stable Coin of a
 * double auction, who passed, the high bid and each seat's last bid as dice), the draw
 * pile, discard and removed cards, then each seat's dice and the cards it holds with the
 * price fluctuation dice on them. Card facts come from the view's own card table.
 */
ArbiterDraw.motcoin = function (ctx) {
  var h = ctx.h, view = ctx.view, table = view.cards || {};

  function signed(n) { return typeof n === "number" && n > 0 ? "+" + n : String(n); }

  function die(face) { return h("span", {class: "die", "data-face": face, text: String(face)}); }

  function dice(faces) {
    if (!faces || !faces.length) return h("span", {class: "dice empty", text: "no dice"});
    return h("span", {class: "dice"}, faces.map(die));
  }

  function card(id, faces, extra) {
    var row = table[id] || {name: id, type: "unknown"};
    var facts = [];
    if (row.price !== undefined) facts.push(h("span", {class: "coin-price", text: String(row.price)}));
    var lines = h("span", {class: "coin-lines"},
      row.fluctuation !== undefined
        ? h("span", {class: "coin-fluct", text: "fluct. " + signed(row.fluctuation)}) : null,
      row.crash !== undefined ? h("span", {class: "coin-crash", text: "crash " + signed(row.crash)}) : null,
      row.auction ? h("span", {class: "coin-auction", text: row.auction + " auction"}) : null);
    return h("div", {class: "coin-card type-" + row.type + (extra ? " " + extra : ""), "data-card": id,
      title: row.name + " (" + row.type + ")"},
      h("span", {class: "coin-name", text: row.name}),
      h("span", {class: "coin-type", text: row.type}),
      facts, lines, faces === undefined ? null : dice(faces));
  }

  function chips(ids) {
    return (ids || []).map(function (id) {
      var row = table[id] || {name: id, type: "unknown"};
      return h("span", {class: "chip type-" + row.type, "data-card": id, title: row.name, text: row.name});
    });
  }

  var root = h("div", {class: "game motcoin"});
  var centre = h("div", {class: "centre"});
  var a = view.auction;
  if (a) {
    var seats = h("ul", {class: "bidders"});
    a.order.forEach(function (seat) {
      var marks = [];
      if (seat === a.turn) marks.push("to bid");
      if (a.passed.indexOf(seat) >= 0) marks.push("passed");
      if (seat === a.high_seat) marks.push("high bid");
      seats.appendChild(h("li", {"data-seat": seat, class: seat === a.high_seat ? "high" : null},
        h("span", {class: "seat-name", text: seat}),
        marks.length ? h("span", {class: "marks", text: " (" + marks.join(", ") + ") "}) : " ",
        a.last_bids[seat] ? dice(a.last_bids[seat]) : null));
    });
    centre.appendChild(h("div", {class: "zone auction", "data-zone": "auction"},
      h("span", {class: "zone-label", text: a.stable ? "Double auction" : "Auction"}),
      h("div", {class: "cards"}, card(a.card), a.stable ? card(a.stable) : null),
      h("div", {class: "high-bid"}, "High bid: ",
        a.high_seat ? h("span", null, a.high_seat + " ", dice(a.high)) : "none yet"),
      seats));
  } else {
    centre.appendChild(h("div", {class: "zone auction", "data-zone": "auction"},
      h("span", {class: "zone-label", text: "Auction"}), h("span", {class: "empty", text: "no auction open"})));
  }
  var facts = h("ul", {class: "facts"},
    h("li", {text: "Round " + view.round + "; first player " + view.first_player}),
    h("li", null, "Draw pile: ", h("span", {class: "deck-count", text: String(view.draw_pile.count)}),
      " cards ", h("span", {class: "chips"}, chips(view.draw_pile.cards))),
    h("li", null, "Discard: ", view.discard.length ? h("span", {class: "chips"}, chips(view.discard)) : "—"),
    h("li", null, "Removed: ", view.removed && view.removed.length ? h("span", {class: "chips"}, chips(view.removed)) : "—"),
    h("li", {text: "Stable Coins in supply: " + view.stable_supply + "; hardforks auctioned: " +
      view.hardforks_auctioned + (view.ender ? "; the game ends with " + (table[view.ender] || {name: view.ender}).name : "")}));
  if (view.pending_removals && view.pending_removals.length) {
    facts.appendChild(h("li", {text: "Dice to take back: " + view.pending_removals.join(", ") +
      (view.removal_source ? " (" + (table[view.removal_source] || {name: view.removal_source}).name + ")" : "")}));
  }
  centre.appendChild(facts);
  root.appendChild(centre);

  var result = view.result;
  var players = h("div", {class: "players"});
  view.seats.forEach(function (seat) {
    var p = view.players[seat];
    var bidding = a && a.turn === seat;
    var panel = h("div", {class: "player" + (bidding ? " current" : "") + (seat === ctx.viewer ? " you" : ""),
      "data-seat": seat},
      h("div", {class: "player-head"},
        h("span", {class: "seat-name", text: seat + (seat === ctx.viewer ? " (you)" : "")}),
        seat === view.first_player ? h("span", {class: "turn-mark", text: "first player"}) : null,
        ctx.badge("dice-count", "dice available", p.available),
        ctx.badge("dice-total", "of", p.dice)),
      ctx.zone("holdings", "Cards", p.cards.map(function (c) { return card(c.card, c.dice); })));
    if (result && result.seats && result.seats[seat]) {
      var b = result.seats[seat].breakdown;
      panel.appendChild(h("p", {class: "score-notes", text: "Score " + result.scores[seat] +
        " — profit " + b.profit + ", losses " + b.losses + ", base " + b.base}));
    }
    players.appendChild(panel);
  });
  root.appendChild(players);
  return root;
};
