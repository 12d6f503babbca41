/* The viewer's legal moves, as the engine listed them (canonical notation, docs/notation.md),
   indexed by what a click starts from: a card in hand, one of your pyramids, an opponent's
   pyramid, an Ace. Nothing here knows a rule: every highlight on the page is a lookup in this
   index, so the page can only ever build a move the engine listed. How cards read and what they
   pay in an attack come from the page data, never from rules of one game written here. */

export const SIZE_PIPS = { S: 1, M: 2, L: 3 };
export const SIZE_NAME = { S: "small", M: "medium", L: "large" };

/* How a card reads ("7♥", "Lunatic"): the game's own label, sent in the page data ("labels"). */
export function cardLabel(labels, card) {
  return (labels && labels[card]) || card;
}

/* The change drawn after paying `pay` for a piece of `size`: the attack pips paid (the page data's
   "pips", from the game) over the piece's size. */
export function changeFor(pips, pay, size) {
  const total = pay.reduce((sum, card) => sum + ((pips && pips[card]) || 0), 0);
  return Math.max(0, total - SIZE_PIPS[size]);
}

function nested(map, key) {
  if (!map.has(key)) map.set(key, new Map());
  return map.get(key);
}

function listed(map, key) {
  if (!map.has(key)) map.set(key, []);
  return map.get(key);
}

/* A multiset of cards as one string, whatever order they were picked in. */
export function cardsKey(cards) {
  return cards.slice().sort().join(" ");
}

export function indexMoves(moves) {
  const index = {
    all: new Set(moves),
    draw: null,
    choose: new Map(), // card -> text
    place: new Map(), // cell -> text
    build: new Map(), // card -> cell -> {text, verb}  (build and hatch: a card from hand onto a cell)
    grow: new Map(), // "cell size" -> text
    spawn: new Map(), // cell -> text
    move: new Map(), // "cell size" -> dst -> text
    attack: new Map(), // cell -> [{text, verb, colour, size, into, pay}]
    fly: new Map(), // ace -> src -> dst -> text
    discard: new Map(), // cardsKey -> text
    discardCards: new Set(),
  };
  for (const text of moves) add(index, text);
  return index;
}

function add(index, text) {
  const w = text.split(" ");
  switch (w[0]) {
    case "draw": index.draw = text; break;
    case "choose": index.choose.set(w[1], text); break;
    case "place": index.place.set(w[1], text); break;
    case "build":
    case "hatch": nested(index.build, w[1]).set(w[2], { text, verb: w[0] }); break;
    case "grow": index.grow.set(w[2] + " " + w[1], text); break;
    case "spawn": index.spawn.set(w[1], text); break;
    case "move": nested(index.move, w[2] + " " + w[1]).set(w[3], text); break;
    case "demolish": /* demolish COLOUR SIZE CELL pay CARDS... [draw N] */
      listed(index.attack, w[3]).push(attackOf(text, w, null, 5));
      break;
    case "convert": /* convert COLOUR SIZE CELL into SIZE pay CARDS... [draw N] */
      listed(index.attack, w[3]).push(attackOf(text, w, w[5], 7));
      break;
    case "fly": nested(nested(index.fly, w[4]), w[1]).set(w[2], text); break; /* fly SRC DST pay ACE */
    case "discard":
      index.discard.set(cardsKey(w.slice(1)), text);
      w.slice(1).forEach((card) => index.discardCards.add(card));
      break;
    default: break; /* a kind this page does not build by clicks stays in the list below the board */
  }
}

/* An attack's parts. `draws` is the number of change cards a closing "draw N" asks for (a game may
   let the attacker draw fewer); null when the move draws the whole change. */
function attackOf(text, w, into, payFrom) {
  const rest = w.slice(payFrom);
  const at = rest.indexOf("draw");
  const pay = at < 0 ? rest : rest.slice(0, at);
  const draws = at < 0 ? null : Number(rest[at + 1]);
  return { text, verb: w[0], colour: w[1], size: w[2], into, pay, draws };
}

/* What a click on a card in hand may start. */
export function handCardRole(index, phase, card) {
  if (phase === "choose" && index.choose.has(card)) return "choose";
  if (phase === "discard" && index.discardCards.has(card)) return "discard";
  if (index.build.has(card)) return "build";
  if (index.fly.has(card)) return "fly";
  return null;
}

/* The sizes of the viewer's pyramids on `cell` that can do something (move, grow, spawn there). */
export function pieceActions(index, cell, size) {
  const key = cell + " " + size;
  return {
    moves: index.move.get(key) || new Map(),
    grow: index.grow.get(key) || null,
    spawn: index.spawn.get(cell) || null,
  };
}

export function hasPieceActions(index, cell, size) {
  const a = pieceActions(index, cell, size);
  return a.moves.size > 0 || Boolean(a.grow) || Boolean(a.spawn);
}

/* Every cell some Ace can fly from, with the destinations per Ace. */
export function flySources(index, ace) {
  return index.fly.get(ace) || new Map();
}
