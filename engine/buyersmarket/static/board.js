/* Buyer's Market: build a move by clicking the market (the game page imports this module, BoardScript.module).

   Everything offered comes from the page data's legal-move list ("place M 7H", "contribute L 7H",
   "buy 3C with L back S", "... call", "pile H", "pass") and nothing else: this script knows no rule
   of the game. Click (or Enter/Space on) a pallet that has moves: its moves appear as buttons; pick
   one, tick "call the building phase" if the list offers that move with call, and Confirm. When the
   die asks for a pile, the piles light up instead. Clicking the pallet again, Cancel or Escape goes
   back to the start.

     idle ─ a lit pallet ─▶ pallet ─ a move button ─▶ built (± call) ─ Confirm ─▶ sent
          ─ a lit pile (after the atom, or a colour with nothing left) ─▶ built
          ─ Pass button (only when the list has pass) ─▶ built                                   */

const SIZE = { S: "Small", M: "Medium", L: "Large" };
const MARKS = ["bm-selectable", "bm-selected", "bm-chosen"];

/* The stylesheet of the highlights, beside this module (board.css, Package.style): the game page links
   it too; a page that imports the module alone still gets it. */
function addStyles() {
  if (document.querySelector("link[data-bm-styles]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./board.css", import.meta.url).href;
  link.dataset.bmStyles = "";
  document.head.append(link);
}

/* The legal moves indexed for clicks: Map(pallet card -> [move texts without " call"]), the texts
   that may also be sent with " call", Map(suit -> "pile X"), and pass. */
export function indexMoves(moves) {
  const pallets = new Map();
  const callable = new Set();
  const piles = new Map();
  let pass = null;
  for (const text of moves) {
    const words = text.split(" ");
    if (words[0] === "pile") piles.set(words[1], text);
    else if (words[0] === "pass") pass = text;
    else if (["place", "contribute", "buy"].includes(words[0])) {
      const called = words[words.length - 1] === "call";
      const plain = called ? words.slice(0, -1).join(" ") : text;
      if (called) callable.add(plain);
      const card = words[0] === "buy" ? words[1] : words[2];
      if (!pallets.has(card)) pallets.set(card, []);
      if (!pallets.get(card).includes(plain)) pallets.get(card).push(plain);
    }
  }
  return { pallets, callable, piles, pass };
}

/* A move in words for its button: "Place a GRP Medium", "Buy, paying L S; change S to your bank". */
export function moveWords(text) {
  const words = text.split(" ");
  if (words[0] === "place") return `Place a ${SIZE[words[1]]} from the global resources`;
  if (words[0] === "contribute") return `Contribute a ${SIZE[words[1]]} from your bank`;
  const parts = [];
  for (let i = 2; i < words.length; i += 2) {
    const sizes = words[i + 1].split("").map((s) => SIZE[s]).join(" + ");
    if (words[i] === "with") parts.push(`paying ${sizes} from your bank`);
    if (words[i] === "back") parts.push(`change: ${sizes} back to your bank`);
    if (words[i] === "return") parts.push(`change: ${sizes} back to the global resources`);
  }
  return parts.length ? `Buy, ${parts.join("; ")}` : "Buy it as it stands";
}

export function attachBuilder({ data, board, panel, zoom, onConfirm }) {
  addStyles();
  const index = indexMoves(data.moves);
  const labels = data.labels || {};
  const ui = {
    prompt: panel.querySelector("[data-builder=prompt]"),
    notation: panel.querySelector("[data-builder=notation]"),
    choices: panel.querySelector("[data-builder=choices]"),
    confirm: panel.querySelector("[data-builder=confirm]"),
    cancel: panel.querySelector("[data-builder=cancel]"),
  };
  const pallets = new Map([...board.querySelectorAll("[data-pallet]")].map((el) => [el.dataset.pallet, el]));
  const piles = new Map([...board.querySelectorAll("[data-pile]")].map((el) => [el.dataset.pile, el]));
  let card = null; /* the pallet picked */
  let plain = null; /* the move chosen, without call */
  let call = false;

  const built = () => (plain ? plain + (call && index.callable.has(plain) ? " call" : "") : null);
  const label = (c) => labels[c] || c;

  function reset() {
    card = null;
    plain = null;
    call = false;
    render();
  }

  function pickPallet(picked) {
    if (picked === card) return reset();
    card = picked;
    plain = null;
    render();
  }

  function pickPile(suit) {
    card = null;
    plain = index.piles.get(suit);
    render();
  }

  function render() {
    for (const el of [...pallets.values(), ...piles.values()]) {
      MARKS.forEach((name) => el.classList.remove(name));
      ["tabindex", "role", "aria-label", "aria-pressed"].forEach((name) => el.removeAttribute(name));
    }
    for (const [c, el] of pallets) {
      if (!index.pallets.has(c)) continue;
      mark(el, `pallet ${label(c)}: ${index.pallets.get(c).length} moves`);
      if (c === card) {
        el.classList.add("bm-selected");
        el.setAttribute("aria-pressed", "true");
      }
    }
    for (const [suit, el] of piles) {
      if (!index.piles.has(suit)) continue;
      mark(el, `take the next pallet from the ${suit} pile`);
      if (plain === index.piles.get(suit)) el.classList.add("bm-chosen");
    }
    describe();
  }

  function mark(el, text) {
    el.classList.add("bm-selectable");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", text);
  }

  function button(text, onClick, pressed) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = pressed ? "btn btn-primary" : "btn";
    el.textContent = text;
    el.addEventListener("click", onClick);
    return el;
  }

  function describe() {
    ui.choices.replaceChildren();
    if (card) {
      for (const text of index.pallets.get(card)) {
        const el = button(moveWords(text), () => { plain = text; render(); }, text === plain);
        el.dataset.move = text;
        ui.choices.append(el);
      }
    } else if (index.pass && !index.piles.size) {
      ui.choices.append(button("Pass (you have no action)", () => { plain = index.pass; render(); }, plain === index.pass));
    }
    if (plain && index.callable.has(plain)) {
      const box = document.createElement("label");
      box.className = "bm-call";
      const tick = document.createElement("input");
      tick.type = "checkbox";
      tick.checked = call;
      tick.dataset.builder = "call";
      tick.addEventListener("change", () => { call = tick.checked; render(); });
      box.append(tick, " and call the building phase (everyone else has one more turn)");
      ui.choices.append(box);
    }
    if (plain) ui.prompt.textContent = `${built()}: confirm or cancel.`;
    else if (card) ui.prompt.textContent = `Pallet ${label(card)}: choose a move.`;
    else if (index.piles.size) ui.prompt.textContent = "Choose the pile the next pallet comes from (lit).";
    else ui.prompt.textContent = index.pallets.size ? "Click a pallet (outlined) to see your moves on it." : "You have no move on a pallet.";
    ui.notation.textContent = built() || "";
    ui.confirm.disabled = !plain;
    ui.cancel.disabled = !card && !plain;
  }

  function onBoard(event) {
    const el = event.target.closest("[data-pallet], [data-pile]");
    if (!el || !el.hasAttribute("role")) return;
    if (el.dataset.pallet) pickPallet(el.dataset.pallet);
    else pickPile(el.dataset.pile);
  }

  const onKey = (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (!event.target.closest("[role=button]")) return;
    event.preventDefault();
    onBoard(event);
  };
  const onEscape = (event) => {
    if (event.key !== "Escape" || event.target.closest("input, textarea, select")) return;
    if (card || plain) {
      event.preventDefault();
      reset();
    }
  };
  const onConfirmClick = () => plain && onConfirm(built());
  /* A pallet or pile reached with Tab is panned into view on a zoomed board (keyboards cannot drag). */
  const onFocus = (event) => zoom && event.target !== board && zoom.reveal(event.target);

  board.addEventListener("click", onBoard);
  board.addEventListener("keydown", onKey);
  board.addEventListener("focusin", onFocus);
  ui.cancel.addEventListener("click", reset);
  ui.confirm.addEventListener("click", onConfirmClick);
  document.addEventListener("keydown", onEscape);
  panel.hidden = false;
  board.setAttribute("role", "group");
  board.setAttribute("aria-label", "The market: pick a pallet, then a move");
  render();

  return {
    reset,
    detach() {
      document.removeEventListener("keydown", onEscape);
      board.removeEventListener("click", onBoard);
      board.removeEventListener("keydown", onKey);
      board.removeEventListener("focusin", onFocus);
      ui.cancel.removeEventListener("click", reset);
      ui.confirm.removeEventListener("click", onConfirmClick);
    },
  };
}
