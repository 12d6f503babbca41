/* The kit's click-to-move script (BoardScript.module of every game that draws a kit Scene,
   engine/kit/draw). It knows no game: the page data's `steps` list each legal step of the viewer
   with its click path, the board's targets are named by `data-target`, and every highlight is a
   lookup in that list, so only a listed move can be built.

   Each click narrows the steps to those whose path starts with what was clicked; the targets that
   can come next light up. When the clicks make a whole path, its step is shown with Confirm (or sent
   at once when the data says `confirm: false`); when several steps share that path, each is a button.
   Clicking the last picked target again takes it back; Cancel or Escape start again. Keyboard: Tab
   reaches every lit target, Enter or Space clicks it. Steps with no path (pass, roll) stay the move
   panel's buttons.

     idle ─ a lit target ─▶ picking ─ … ─▶ whole path ─ Confirm (or a button) ─▶ sent            */

const LIT = "kd-can";
const PICKED = "kd-picked";

/* The steps whose path starts with `picked`, split into those it completes and those that go on. */
export function narrow(steps, picked) {
  const starts = (step) => picked.every((name, i) => step.path[i] === name);
  const open = steps.filter((step) => step.path.length >= picked.length && starts(step));
  return {
    done: picked.length ? open.filter((step) => step.path.length === picked.length) : [],
    next: new Set(open.filter((step) => step.path.length > picked.length).map((step) => step.path[picked.length])),
  };
}

/* The page data's steps, only those still in its legal-move list and with something to click. */
export function clickable(data) {
  const legal = new Set(data.moves || []);
  return (data.steps || []).filter((step) => legal.has(step.text) && step.path && step.path.length);
}

export function attachBuilder({ data, board, hand, panel, onConfirm }) {
  const steps = clickable(data);
  const confirmFirst = data.confirm !== false;
  const ui = {
    prompt: panel.querySelector("[data-builder=prompt]"),
    notation: panel.querySelector("[data-builder=notation]"),
    choices: panel.querySelector("[data-builder=choices]"),
    confirm: panel.querySelector("[data-builder=confirm]"),
    cancel: panel.querySelector("[data-builder=cancel]"),
  };
  const roots = [board, hand].filter(Boolean);
  const targets = new Map(); /* name -> [elements] (a name may be drawn more than once) */
  for (const root of roots) {
    for (const el of root.querySelectorAll("[data-target]")) {
      if (!targets.has(el.dataset.target)) targets.set(el.dataset.target, []);
      targets.get(el.dataset.target).push(el);
      el.dataset.kdLabel = el.getAttribute("aria-label") || el.dataset.target;
    }
  }
  let picked = [];
  let built = null;
  /* What the prompt calls a target: the picture's own words for it ("red Medium"), else its name. */
  const spoken = (name) => (targets.has(name) ? targets.get(name)[0].dataset.kdLabel : name);

  function reset() {
    picked = [];
    built = null;
    render();
  }

  function pick(name) {
    const { next } = narrow(steps, picked);
    if (picked.length && name === picked[picked.length - 1]) {
      picked = picked.slice(0, -1); /* the last pick, clicked again: take it back */
    } else if (next.has(name)) {
      picked = [...picked, name];
    } else if (narrow(steps, []).next.has(name)) {
      picked = [name]; /* a fresh start elsewhere */
    } else {
      return;
    }
    built = null;
    const { done, next: after } = narrow(steps, picked);
    if (done.length === 1 && after.size === 0) choose(done[0].text);
    else render();
  }

  function choose(text) {
    built = text;
    if (!confirmFirst) {
      onConfirm(text);
      return;
    }
    render();
  }

  function render() {
    const { done, next } = narrow(steps, picked);
    for (const [name, els] of targets) {
      for (const el of els) {
        el.classList.remove(LIT, PICKED);
        ["tabindex", "role", "aria-pressed"].forEach((attr) => el.removeAttribute(attr));
        el.setAttribute("aria-label", el.dataset.kdLabel);
        if (built) continue;
        if (picked.includes(name)) {
          el.classList.add(PICKED);
          el.setAttribute("aria-pressed", "true");
          el.setAttribute("aria-label", `${el.dataset.kdLabel}, picked (press again to take it back)`);
          if (name === picked[picked.length - 1]) offer(el);
        } else if (next.has(name)) {
          el.classList.add(LIT);
          offer(el);
        }
      }
    }
    describe(done, next);
  }

  function offer(el) {
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
  }

  function describe(done, next) {
    ui.choices.replaceChildren();
    if (!built) {
      for (const step of done) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "btn mono";
        button.textContent = step.text;
        button.addEventListener("click", () => choose(step.text));
        ui.choices.append(button);
      }
    }
    const count = next.size;
    const lit = `${count} lit place${count === 1 ? "" : "s"}`;
    const sofar = `Picked ${picked.map(spoken).join(", then ")}`;
    if (built) {
      ui.prompt.textContent = `${built}: confirm or cancel.`;
    } else if (!picked.length) {
      ui.prompt.textContent = steps.length ? `Click one of the ${lit} on the board to start your move.` : "";
    } else if (done.length) {
      const more = count ? `play a move below, or click one of the ${lit}` : "choose the move below";
      ui.prompt.textContent = `${sofar}: ${more}.`;
    } else {
      ui.prompt.textContent = `${sofar}: now click one of the ${lit}.`;
    }
    ui.notation.textContent = built || "";
    ui.confirm.disabled = !built;
    ui.cancel.disabled = !picked.length && !built;
  }

  /* The innermost target a click landed in that can be clicked now (a piece inside a cell, say). */
  function targetOf(event) {
    let el = event.target.closest("[data-target]");
    while (el && !el.hasAttribute("role")) el = el.parentElement && el.parentElement.closest("[data-target]");
    return el || null;
  }

  function onClick(event) {
    const el = targetOf(event);
    if (el) pick(el.dataset.target);
  }

  const onKey = (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const el = targetOf(event);
    if (!el) return;
    event.preventDefault();
    pick(el.dataset.target);
  };
  const onEscape = (event) => {
    if (event.key !== "Escape" || event.target.closest("input, textarea, select")) return;
    if (picked.length || built) {
      event.preventDefault();
      reset();
    }
  };
  const onConfirmClick = () => built && onConfirm(built);

  roots.forEach((root) => {
    root.addEventListener("click", onClick);
    root.addEventListener("keydown", onKey);
  });
  ui.cancel.addEventListener("click", reset);
  ui.confirm.addEventListener("click", onConfirmClick);
  document.addEventListener("keydown", onEscape);
  panel.hidden = !steps.length;
  board.setAttribute("role", "group");
  board.setAttribute("aria-label", "The board: click the lit places, one after the other, to make your move");
  render();

  return {
    reset,
    /* Steps with no place on the board (pass, roll, stop) stay the page's one-click buttons. */
    keepsQuickButtons: true,
    detach() {
      document.removeEventListener("keydown", onEscape);
      roots.forEach((root) => {
        root.removeEventListener("click", onClick);
        root.removeEventListener("keydown", onKey);
      });
      ui.cancel.removeEventListener("click", reset);
      ui.confirm.removeEventListener("click", onConfirmClick);
    },
  };
}
