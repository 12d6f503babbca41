/* Martian Chess: build a move by clicking the board (the game page imports this module, BoardScript.module).

   Every highlight comes from the page data's legal-move list ("c2-d3", "pass", "resign") and
   nothing else: this script knows no rule of the game. Click (or Enter/Space on) a piece that has a
   move, the cells it may reach light up; click one and the move is shown with Confirm. Clicking the
   selected piece again, Cancel or Escape goes back to the start.

     idle ─ a piece with moves ─▶ piece ─ a lit cell ─▶ built ─ Confirm ─▶ sent
          ─ Pass button (only when the list has pass) ─▶ built                                   */

const NAMES = { S: "Pawn", M: "Drone", L: "Queen" };
const MARKS = ["mc-selectable", "mc-selected", "mc-target", "mc-chosen"];

/* "c2-d3" moves indexed by the cell they start from: Map(start -> [ends]). */
export function indexSteps(moves) {
  const steps = new Map();
  for (const text of moves) {
    const match = /^([a-h][1-8])-([a-h][1-8])$/.exec(text);
    if (!match) continue;
    if (!steps.has(match[1])) steps.set(match[1], []);
    steps.get(match[1]).push(match[2]);
  }
  return steps;
}

export function attachBuilder({ data, board, panel, onConfirm }) {
  const steps = indexSteps(data.moves);
  const canPass = data.moves.includes("pass");
  const ui = {
    prompt: panel.querySelector("[data-builder=prompt]"),
    notation: panel.querySelector("[data-builder=notation]"),
    choices: panel.querySelector("[data-builder=choices]"),
    confirm: panel.querySelector("[data-builder=confirm]"),
    cancel: panel.querySelector("[data-builder=cancel]"),
  };
  const cells = new Map([...board.querySelectorAll("[data-cell]")].map((el) => [el.dataset.cell, el]));
  let from = null; /* the cell of the piece picked up */
  let built = null; /* the whole move, ready to confirm */

  function reset() {
    from = null;
    built = null;
    render();
  }

  function pieceName(cell) {
    const el = cells.get(cell);
    return el && el.dataset.size ? NAMES[el.dataset.size] : "piece";
  }

  /* What landing on `cell` does, as far as the picture tells: for the cell's spoken label only. */
  function landing(cell) {
    const el = cells.get(cell);
    if (!el || !el.dataset.size) return "empty";
    const mine = el.dataset.zone === data.viewer;
    return mine ? `merge with the ${NAMES[el.dataset.size]}` : `capture the ${NAMES[el.dataset.size]}`;
  }

  function pick(cell) {
    if (built && built !== "pass" && cell === built.slice(3)) return; /* already chosen: Confirm sends it */
    if (from && (steps.get(from) || []).includes(cell)) {
      built = `${from}-${cell}`;
    } else if (steps.has(cell) && cell !== from) {
      from = cell;
      built = null;
    } else if (cell === from) {
      from = null;
      built = null;
    }
    render();
  }

  function render() {
    for (const el of cells.values()) {
      MARKS.forEach((name) => el.classList.remove(name));
      ["tabindex", "role", "aria-label", "aria-pressed"].forEach((name) => el.removeAttribute(name));
    }
    for (const start of steps.keys()) {
      const el = cells.get(start);
      if (el) mark(el, "mc-selectable", `${pieceName(start)} on ${start}: pick it up`);
    }
    if (from) {
      const el = cells.get(from);
      el.classList.add("mc-selected");
      el.setAttribute("aria-pressed", "true");
      el.setAttribute("aria-label", `${pieceName(from)} on ${from}, picked up (press again to put it back)`);
      for (const end of steps.get(from)) {
        const target = cells.get(end);
        if (!target) continue;
        mark(target, "mc-target", `move the ${pieceName(from)} to ${end}: ${landing(end)}`);
        if (built === `${from}-${end}`) target.classList.add("mc-chosen");
      }
    }
    describe();
  }

  function mark(el, name, label) {
    el.classList.add(name);
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", label);
  }

  function describe() {
    ui.choices.replaceChildren();
    if (canPass && !from) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn";
      button.textContent = "Pass (you have no move)";
      button.addEventListener("click", () => {
        built = "pass";
        render();
      });
      ui.choices.append(button);
    }
    if (built) {
      const end = built === "pass" ? "" : built.slice(3);
      ui.prompt.textContent = built === "pass"
        ? "Pass: confirm or cancel."
        : `Move the ${pieceName(from)} from ${from} to ${end} (${landing(end)}): confirm or cancel.`;
    } else if (from) {
      const count = steps.get(from).length;
      ui.prompt.textContent = `${pieceName(from)} on ${from}: choose one of the ${count} lit cell${count === 1 ? "" : "s"}.`;
    } else {
      ui.prompt.textContent = steps.size
        ? "Click a piece in your zone (outlined) to see where it may go."
        : "You have no move on the board.";
    }
    ui.notation.textContent = built || "";
    ui.confirm.disabled = !built;
    ui.cancel.disabled = !from && !built;
  }

  function onBoard(event) {
    const el = event.target.closest("[data-cell]");
    if (el && el.hasAttribute("role")) pick(el.dataset.cell);
  }

  const onKey = (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (!event.target.closest("[role=button]")) return;
    event.preventDefault();
    onBoard(event);
  };
  const onEscape = (event) => {
    if (event.key !== "Escape" || event.target.closest("input, textarea, select")) return;
    if (from || built) {
      event.preventDefault();
      reset();
    }
  };
  const onConfirmClick = () => built && onConfirm(built);

  board.addEventListener("click", onBoard);
  board.addEventListener("keydown", onKey);
  ui.cancel.addEventListener("click", reset);
  ui.confirm.addEventListener("click", onConfirmClick);
  document.addEventListener("keydown", onEscape);
  panel.hidden = false;
  board.setAttribute("role", "group");
  board.setAttribute("aria-label", "The board: pick up a piece in your zone, then a lit cell");
  render();

  return {
    reset,
    detach() {
      document.removeEventListener("keydown", onEscape);
      board.removeEventListener("click", onBoard);
      board.removeEventListener("keydown", onKey);
      ui.cancel.removeEventListener("click", reset);
      ui.confirm.removeEventListener("click", onConfirmClick);
    },
  };
}
