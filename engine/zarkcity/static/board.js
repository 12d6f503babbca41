/* The move builder: a small state machine driven by clicks (or Enter/Space) on the hand and the
   board. Every state is a partial move; what may be clicked next comes from the legal-move index
   (moves.js) and nothing else. When the move is whole its notation is shown with a Confirm
   button; Escape, Cancel or a second click on the selection goes back to the start.

     idle ─ hand card ─▶ card (build/hatch) ─ lit cell ─▶ built
          ─ your pyramid ─▶ piece ─ lit card ─▶ built      (Grow / Spawn / Attack here: buttons)
          ─ opponent's pyramid ─▶ attack ─ a payment ─▶ built
          ─ Ace ─▶ fly ─ lit card ─▶ fly from ─ lit cell ─▶ built
          ─ Draw button / starter card / lit cell (place) ─▶ built
     discard: tick exactly N cards of the hand ─▶ built                                           */

import {
  SIZE_NAME, cardLabel, cardsKey, changeFor, handCardRole, hasPieceActions, indexMoves, pieceActions,
} from "./moves.js";

const SIZES = ["S", "M", "L"];
const MARKS = ["zc-target", "zc-selectable", "zc-selected", "zc-chosen"];

export function attachBuilder({ data, board, hand, panel, zoom, onConfirm }) {
  const index = indexMoves(data.moves);
  const ui = {
    prompt: panel.querySelector("[data-builder=prompt]"),
    notation: panel.querySelector("[data-builder=notation]"),
    choices: panel.querySelector("[data-builder=choices]"),
    confirm: panel.querySelector("[data-builder=confirm]"),
    cancel: panel.querySelector("[data-builder=cancel]"),
  };
  const squares = byCell(board, ".zc-square");
  const slots = byCell(board, ".zc-slot");
  const handCards = hand ? [...hand.querySelectorAll(".zc-hand-card")] : [];
  let sel = start();
  let built = null;

  function start() {
    return data.phase === "discard" ? { kind: "discard", picked: [] } : { kind: "idle" };
  }

  function reset() {
    sel = start();
    built = null;
    render();
  }

  // ------------------------------------------------------------------ what a click does

  function pickHandCard(el, viaKey) {
    const card = el.dataset.card;
    if (sel.kind === "discard") return toggleDiscard(el, viaKey);
    if (sel.el === el) return reset();
    const role = handCardRole(index, data.phase, card);
    built = null;
    if (role === "choose") {
      sel = { kind: "choose", el, card };
      built = index.choose.get(card);
    } else if (role === "build") {
      sel = { kind: "card", el, card };
    } else if (role === "fly") {
      sel = { kind: "fly", el, ace: card, src: null };
    } else {
      return;
    }
    render();
    showTargets();
    focusNext(viaKey);
  }

  function toggleDiscard(el, viaKey) {
    const at = sel.picked.indexOf(el);
    if (at >= 0) sel.picked.splice(at, 1);
    else if (sel.picked.length < data.discard) sel.picked.push(el);
    built = index.discard.get(cardsKey(sel.picked.map((c) => c.dataset.card))) || null;
    render();
    if (built && viaKey) ui.confirm.focus();
  }

  function pickSquare(cell, viaKey) {
    if (sameSelection(cell)) return reset();
    const mine = ownSizes(cell).filter((size) => hasPieceActions(index, cell, size));
    if (mine.length) return selectPiece(cell, mine[0], viaKey);
    if (index.attack.has(cell)) return selectAttack(cell, null, viaKey);
  }

  function pickPiece(el, viaKey) {
    const { cell, colour, size } = el.dataset;
    if (colour === data.viewer) {
      if (sel.kind === "piece" && sel.cell === cell && sel.size === size) return reset();
      if (hasPieceActions(index, cell, size)) return selectPiece(cell, size, viaKey);
      return pickSquare(cell, viaKey);
    }
    if (sel.kind === "attack" && sel.cell === cell && sel.colour === colour && sel.size === size) return reset();
    if (attacksOn(cell, colour, size).length) return selectAttack(cell, { colour, size }, viaKey);
  }

  function selectPiece(cell, size, viaKey) {
    sel = { kind: "piece", cell, size };
    built = null;
    render();
    showTargets();
    focusNext(viaKey);
  }

  function selectAttack(cell, piece, viaKey) {
    sel = { kind: "attack", cell, colour: piece && piece.colour, size: piece && piece.size };
    built = null;
    render();
    if (viaKey) focusFirst(ui.choices.querySelector("button"));
  }

  function pickTarget(cell, viaKey) {
    if (sel.kind === "idle") built = index.place.get(cell);
    else if (sel.kind === "card") built = index.build.get(sel.card).get(cell).text;
    else if (sel.kind === "piece") built = pieceActions(index, sel.cell, sel.size).moves.get(cell);
    else if (sel.kind === "fly" && !sel.src) {
      sel.src = cell;
      built = null;
      render();
      showTargets();
      return focusNext(viaKey);
    } else if (sel.kind === "fly") built = index.fly.get(sel.ace).get(sel.src).get(cell);
    sel.target = cell;
    render();
    if (viaKey) ui.confirm.focus();
  }

  function choose(text, viaKey) {
    built = text;
    render();
    if (viaKey) ui.confirm.focus();
  }

  // ------------------------------------------------------------------ what is lit

  function targets() {
    if (sel.kind === "idle") return { cells: [...index.place.keys()], on: slots };
    if (sel.kind === "card") return { cells: [...index.build.get(sel.card).keys()], on: slots };
    if (sel.kind === "piece") return { cells: [...pieceActions(index, sel.cell, sel.size).moves.keys()], on: squares };
    if (sel.kind === "fly") {
      const sources = index.fly.get(sel.ace);
      if (!sel.src) return { cells: [...sources.keys()], on: squares };
      return { cells: [...sources.get(sel.src).keys()], on: slots };
    }
    return { cells: [], on: squares };
  }

  function render() {
    clearMarks();
    const lit = targets();
    for (const cell of lit.cells) {
      const el = lit.on.get(cell);
      if (el) mark(el, "zc-target", targetLabel(el, cell), cell === sel.target);
    }
    handCards.forEach((el) => {
      if (handCardRole(index, data.phase, el.dataset.card)) mark(el, "zc-selectable", handLabel(data.labels, el));
    });
    if (sel.kind === "idle" && data.phase === "act") markBoardStarts();
    if (sel.el) sel.el.classList.add("zc-selected");
    if (sel.kind === "discard") sel.picked.forEach((el) => el.classList.add("zc-selected"));
    handCards.forEach((el) => el.hasAttribute("role") && el.setAttribute("aria-pressed", String(isPicked(el))));
    if (sel.kind === "piece" || sel.kind === "attack") selectedCellMarks();
    if (sel.kind === "fly" && sel.src) {
      const source = squares.get(sel.src);
      if (source) mark(source, "zc-selected", `${source.dataset.card} at ${sel.src}, flying (press again to pick another)`);
    }
    describe();
  }

  function markBoardStarts() {
    for (const [cell, el] of squares) {
      const mine = ownSizes(cell).some((size) => hasPieceActions(index, cell, size));
      if (mine || index.attack.has(cell)) mark(el, "zc-selectable", squareLabel(el, cell, mine));
    }
    board.querySelectorAll(".zc-piece").forEach((el) => {
      const { cell, colour, size } = el.dataset;
      const usable = colour === data.viewer ? hasPieceActions(index, cell, size) : attacksOn(cell, colour, size).length;
      if (usable) el.classList.add("zc-selectable");
    });
  }

  function selectedCellMarks() {
    const square = squares.get(sel.cell);
    if (square) {
      square.classList.add("zc-selected");
      mark(square, "zc-selected", squareLabel(square, sel.cell, sel.kind === "piece") + ", selected");
    }
    board.querySelectorAll(`.zc-piece[data-cell="${sel.cell}"]`).forEach((el) => {
      const mine = el.dataset.colour === data.viewer;
      if (sel.kind === "piece" ? mine && el.dataset.size === sel.size : !mine && (!sel.colour || (el.dataset.colour === sel.colour && el.dataset.size === sel.size))) {
        el.classList.add("zc-selected");
      }
    });
  }

  function clearMarks() {
    for (const el of [...squares.values(), ...slots.values(), ...handCards]) {
      MARKS.forEach((name) => el.classList.remove(name));
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
      el.removeAttribute("aria-pressed");
    }
    board.querySelectorAll(".zc-piece").forEach((el) => MARKS.forEach((name) => el.classList.remove(name)));
  }

  function mark(el, name, label, chosen) {
    el.classList.add(name);
    if (chosen) el.classList.add("zc-chosen");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", label);
  }

  // ------------------------------------------------------------------ the panel

  function describe() {
    const [prompt, partial] = words();
    ui.prompt.textContent = prompt;
    ui.notation.textContent = built || partial || "\u2026";
    ui.notation.classList.toggle("zc-builder__notation--whole", Boolean(built));
    ui.confirm.disabled = !built;
    ui.cancel.disabled = sel.kind === "idle" && !built || (sel.kind === "discard" && !sel.picked.length);
    ui.choices.replaceChildren(...choiceButtons());
  }

  function words() {
    const place = data.starter ? ` (${cardLabel(data.labels, data.starter)})` : "";
    if (built && sel.kind !== "discard" && sel.kind !== "choose") {
      return ["Press Confirm move to play it, or change your pick.", ""];
    }
    switch (sel.kind) {
      case "idle":
        if (data.phase === "choose") return ["Pick the number card from your hand to start with.", "choose \u2026"];
        if (data.phase === "place") return [`Pick a lit cell to place your starter${place}.`, "place \u2026"];
        return ["Pick a card from your hand, one of your pyramids, or an opponent's pyramid.", ""];
      case "choose":
        return [`Start with ${cardLabel(data.labels, sel.card)}?`, ""];
      case "card": {
        const verb = [...index.build.get(sel.card).values()][0].verb;
        return [`${cardLabel(data.labels, sel.card)}: pick a lit cell to ${verb} it.`, `${verb} ${sel.card} \u2026`];
      }
      case "piece":
        return [
          `Your ${SIZE_NAME[sel.size]} pyramid on ${sel.cell}: pick a lit card to move it to, or an action below.`,
          `move ${sel.size} ${sel.cell} \u2026`,
        ];
      case "attack":
        return [`Attack on ${sel.cell}: pick what to do and how to pay.`, ""];
      case "fly":
        if (!sel.src) return [`Fly with ${cardLabel(data.labels, sel.ace)}: pick one of your cards to fly.`, `fly \u2026 pay ${sel.ace}`];
        return [`Pick where the card on ${sel.src} lands.`, `fly ${sel.src} \u2026 pay ${sel.ace}`];
      case "discard": {
        const left = data.discard - sel.picked.length;
        const picked = sel.picked.map((el) => el.dataset.card).join(" ");
        if (left > 0) return [`Pick ${left} more card${left === 1 ? "" : "s"} to discard (down to ${data.handLimit}).`, `discard ${picked} \u2026`];
        return ["Discard these cards?", ""];
      }
      default:
        return ["", ""];
    }
  }

  function choiceButtons() {
    const buttons = [];
    if (sel.kind === "idle" && index.draw) buttons.push(button(`Draw ${data.drawCards} cards`, index.draw));
    if (sel.kind === "piece") {
      const actions = pieceActions(index, sel.cell, sel.size);
      if (actions.grow) buttons.push(button(`Grow to ${SIZE_NAME[next(sel.size)]}`, actions.grow));
      if (actions.spawn) buttons.push(button("Spawn a small here", actions.spawn));
      if (index.attack.has(sel.cell)) buttons.push(action("Attack here\u2026", () => selectAttack(sel.cell, null, true)));
      for (const size of ownSizes(sel.cell)) {
        if (size !== sel.size && hasPieceActions(index, sel.cell, size)) {
          buttons.push(action(`Your ${SIZE_NAME[size]} one instead`, () => selectPiece(sel.cell, size, true)));
        }
      }
    }
    if (sel.kind === "attack") buttons.push(...attackButtons());
    return buttons;
  }

  function attackButtons() {
    const options = index.attack.get(sel.cell) || [];
    const first = options.filter((o) => o.colour === sel.colour && o.size === sel.size);
    const rest = options.filter((o) => !first.includes(o));
    return [...first, ...rest].map((o) => {
      const change = changeFor(data.pips, o.pay, o.size);
      const target = `${o.colour}'s ${SIZE_NAME[o.size]}`;
      const what = o.verb === "demolish" ? `Demolish ${target}` : `Convert ${target} into your ${SIZE_NAME[o.into]}`;
      const pay = o.pay.map((card) => cardLabel(data.labels, card)).join(" ");
      const drawn = o.draws !== null ? `, draw ${o.draws} of the ${change} change cards`
        : change ? `, draw ${change} card${change === 1 ? "" : "s"} change` : ", no change";
      return button(`${what}: pay ${pay}${drawn}`, o.text);
    });
  }

  function button(label, text) {
    const el = action(label, (viaKey) => choose(text, viaKey));
    el.dataset.move = text;
    if (built === text) el.classList.add("zc-choice--chosen");
    el.setAttribute("aria-pressed", String(built === text));
    return el;
  }

  function action(label, run) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "btn btn-small zc-choice";
    el.textContent = label;
    el.addEventListener("click", (event) => run(event.detail === 0));
    return el;
  }

  // ------------------------------------------------------------------ small helpers

  function ownSizes(cell) {
    const sizes = new Set();
    board.querySelectorAll(`.zc-piece[data-cell="${cell}"][data-colour="${data.viewer}"]`).forEach((el) => sizes.add(el.dataset.size));
    return SIZES.filter((size) => sizes.has(size));
  }

  function attacksOn(cell, colour, size) {
    return (index.attack.get(cell) || []).filter((o) => o.colour === colour && o.size === size);
  }

  function sameSelection(cell) {
    return (sel.kind === "piece" || sel.kind === "attack") && sel.cell === cell;
  }

  function isPicked(el) {
    return sel.el === el || (sel.kind === "discard" && sel.picked.includes(el));
  }

  /* The cells a pick lights must be seen: on a phone the hand sits below the board, so a tapped card's
     targets were scrolled off the top of the screen, or outside the panned picture. Pan the picture
     to them, then scroll the page so they stand above the Confirm bar (sticky on a phone). */
  function showTargets() {
    const lit = [...board.querySelectorAll(".zc-target")];
    if (!lit.length) return;
    if (zoom) zoom.show(lit);
    const rects = lit.map((el) => el.getBoundingClientRect());
    const top = Math.min(...rects.map((r) => r.top));
    const bottom = Math.max(...rects.map((r) => r.bottom));
    const bar = getComputedStyle(panel).position === "sticky" ? panel.getBoundingClientRect().height : 0;
    const room = { top: 8, bottom: window.innerHeight - bar - 8 };
    if (top >= room.top && bottom <= room.bottom) return;
    window.scrollBy(0, (top + bottom) / 2 - (room.top + room.bottom) / 2);
  }

  function focusNext(viaKey) {
    if (!viaKey) return;
    if (built) return ui.confirm.focus();
    const first = board.querySelector(".zc-target");
    focusFirst(first || ui.choices.querySelector("button") || ui.cancel);
  }

  function focusFirst(el) {
    if (!el) return;
    el.focus({ preventScroll: true });
    if (zoom && board.contains(el)) zoom.reveal(el);
  }

  // ------------------------------------------------------------------ wiring

  function onBoard(event, viaKey) {
    const piece = event.target.closest(".zc-piece");
    const cellEl = event.target.closest(".zc-square, .zc-slot");
    if (!cellEl) return;
    const cell = cellEl.dataset.cell;
    if (cellEl.classList.contains("zc-target")) return pickTarget(cell, viaKey);
    if (sel.kind === "fly" && sel.src === cell) { /* the card chosen to fly, clicked again: choose another */
      sel.src = null;
      built = null;
      render();
      return focusNext(viaKey);
    }
    if (piece && piece.classList.contains("zc-selectable") && !viaKey) return pickPiece(piece, viaKey);
    if (cellEl.classList.contains("zc-selectable") || cellEl.classList.contains("zc-selected")) {
      return pickSquare(cell, viaKey);
    }
  }

  function onHand(event, viaKey) {
    const el = event.target.closest(".zc-hand-card");
    if (el && el.hasAttribute("role")) pickHandCard(el, viaKey);
  }

  const pressed = (handler) => (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (!event.target.closest("[role=button]")) return;
    event.preventDefault();
    handler(event, true);
  };
  board.addEventListener("click", (event) => onBoard(event, false));
  board.addEventListener("keydown", pressed(onBoard));
  board.addEventListener("focusin", (event) => zoom && event.target !== board && zoom.reveal(event.target));
  if (hand) {
    hand.addEventListener("click", (event) => onHand(event, false));
    hand.addEventListener("keydown", pressed(onHand));
  }
  ui.cancel.addEventListener("click", reset);
  ui.confirm.addEventListener("click", () => built && onConfirm(built));
  const onEscape = (event) => {
    if (event.key !== "Escape" || event.target.closest("input, textarea, select")) return;
    if (sel.kind !== "idle" || built) {
      event.preventDefault();
      reset();
    }
  };
  document.addEventListener("keydown", onEscape);

  panel.hidden = false;
  board.setAttribute("role", "group");
  if (hand) hand.setAttribute("role", "group");
  render();
  return { reset, detach: () => document.removeEventListener("keydown", onEscape) };
}

function byCell(root, selector) {
  return new Map([...root.querySelectorAll(selector)].map((el) => [el.dataset.cell, el]));
}

function next(size) {
  return SIZES[SIZES.indexOf(size) + 1];
}

function targetLabel(el, cell) {
  return el.classList.contains("zc-slot") ? `empty cell ${cell}` : `${el.dataset.card} at ${cell}`;
}

function squareLabel(el, cell, mine) {
  const title = el.querySelector("title");
  return (title ? title.textContent : `${el.dataset.card} at ${cell}`) + (mine ? "" : " (attack)");
}

function handLabel(labels, el) {
  return `${cardLabel(labels, el.dataset.card)} in your hand`;
}
