/* The DOM helpers the replay page and the player's page (arbiter play --web) share; the
 * engines' drawings (draw_<engine>.js) call them through the context they are given.
 * Text from game data is only ever set with textContent or as attribute values: never
 * parsed as HTML.
 */
"use strict";

var ArbiterDom = (function () {
  // h("div", {class: "x", "data-seat": s}, child, "text", [more children])
  function h(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (name) {
        var value = attrs[name];
        if (value === null || value === undefined || value === false) return;
        if (name === "text") node.textContent = String(value);
        else node.setAttribute(name, value === true ? "" : String(value));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    if (typeof child === "string" || typeof child === "number") {
      node.appendChild(document.createTextNode(String(child)));
      return;
    }
    node.appendChild(child);
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function $(id) { return document.getElementById(id); }

  // A labelled zone of cards: <div class="zone" data-zone=name><span>label</span>…</div>
  function zone(name, label, items, empty) {
    var row = h("div", {class: "cards"}, items);
    if (!items || !items.length) append(row, h("span", {class: "empty", text: empty || "—"}));
    return h("div", {class: "zone", "data-zone": name},
      h("span", {class: "zone-label", text: label}), row);
  }

  function badge(cls, label, value) {
    return h("span", {class: "badge " + cls + "-badge"},
      label + " ", h("span", {class: cls, text: String(value)}));
  }

  return {h: h, append: append, clear: clear, $: $, zone: zone, badge: badge};
})();
