/* Pan and zoom for the board picture, by changing its viewBox: drag with a finger or the mouse,
   pinch, Ctrl + wheel (a touchpad pinch arrives as that), the +, - and fit buttons, and on the
   focused board the + - 0 keys and the arrows. A drag never turns into a click on a card. */

const DRAG_PX = 6; // a pointer that moves less than this is a click, not a drag
const MAX_ZOOM = 4; // at most four times the picture of the whole board...
const MAX_SCALE = 2.5; // ...or, for a big board, 2.5 screen pixels per board unit
const MIN_ZOOM = 0.6; // a little room around the whole board
/* Screen pixels per board unit below which ranks and coordinates are too small to read (a card is
   80 units wide, its rank 15 units high): a big board on a phone starts at this scale, showing its
   middle, and is panned; the fit button still shows all of it. A picture whose labels need another
   scale says so in its data-min-scale (set by the game's picture); a picture
   read top to bottom says data-zoom-open="width" and opens as wide as its frame, to be panned down. */
const MIN_SCALE = 0.6;
/* Board units the coordinate labels take along the left and top of the shown part once stuck there
   (engine/zarkcity/picture.py: GUTTER + MARGIN), and the room kept around a shown element. */
const LABEL_BAND = 34;
const PAD = 10;

/* `focus`: elements to centre the first view on when the whole board does not fit (the viewer's pyramids). */
export function attachZoom(wrap, svg, controls, focus = []) {
  const fit = readViewBox(svg);
  const pointers = new Map();
  let drag = null;
  let pinch = null;
  let swallowClick = false;

  const legible = Number(svg.dataset.minScale) || MIN_SCALE;
  sizeToScreen(wrap, svg, fit, legible);
  svg.classList.add("zc-board--zoomable");
  const screen = svg.getBoundingClientRect();
  const fitScale = Math.min(screen.width / fit.w, screen.height / fit.h) || 1;
  const minScale = fitScale * MIN_ZOOM;
  const maxScale = Math.max(fitScale * MAX_ZOOM, MAX_SCALE);
  const labels = { cols: svg.querySelector(".zc-coords--cols"), rows: svg.querySelector(".zc-coords--rows") };
  const column = svg.dataset.zoomOpen === "width" ? screen.width / fit.w : 0;
  let box = centred(Math.max(fitScale, Math.min(1, legible), column), middleOf(focus));
  apply();

  /* The board (or `on`, kept within the board's edges) at `scale` screen pixels per unit. */
  function centred(scale, on = null) {
    const rect = svg.getBoundingClientRect();
    const w = Math.max(1, rect.width) / scale;
    const h = Math.max(1, rect.height) / scale;
    const centre = { x: fit.x + fit.w / 2, y: fit.y + fit.h / 2 };
    if (on && w < fit.w) centre.x = Math.min(fit.x + fit.w - w / 2, Math.max(fit.x + w / 2, on.x));
    if (on && h < fit.h) centre.y = Math.min(fit.y + fit.h - h / 2, Math.max(fit.y + h / 2, on.y));
    return { x: centre.x - w / 2, y: centre.y - h / 2, w, h };
  }

  function apply() {
    svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
    stickLabels();
  }

  /* The column numbers stay along the top and the row numbers along the left of what is shown,
     over the cards, when the board is panned or zoomed past them. */
  function stickLabels() {
    const rect = svg.getBoundingClientRect();
    const scale = unitsPerPixel();
    const left = box.x + box.w / 2 - (rect.width * scale) / 2;
    const top = box.y + box.h / 2 - (rect.height * scale) / 2;
    stick(labels.cols, 0, Math.max(0, top - fit.y));
    stick(labels.rows, Math.max(0, left - fit.x), 0);
  }

  function stick(group, dx, dy) {
    if (!group) return;
    group.setAttribute("transform", `translate(${dx} ${dy})`);
    group.classList.toggle("zc-coords--stuck", dx > 0 || dy > 0); /* its felt band shows only then */
  }

  function unitsPerPixel() {
    const rect = svg.getBoundingClientRect();
    return Math.max(box.w / Math.max(1, rect.width), box.h / Math.max(1, rect.height));
  }

  function toBoard(clientX, clientY) {
    const rect = svg.getBoundingClientRect();
    const scale = unitsPerPixel();
    const cx = box.x + box.w / 2 + (clientX - rect.left - rect.width / 2) * scale;
    const cy = box.y + box.h / 2 + (clientY - rect.top - rect.height / 2) * scale;
    return { x: cx, y: cy };
  }

  function zoom(factor, at) {
    const scaleNow = 1 / unitsPerPixel();
    const next = Math.min(maxScale, Math.max(minScale, scaleNow * factor));
    factor = next / scaleNow;
    const centre = at || { x: box.x + box.w / 2, y: box.y + box.h / 2 };
    box = {
      x: centre.x - (centre.x - box.x) / factor,
      y: centre.y - (centre.y - box.y) / factor,
      w: box.w / factor,
      h: box.h / factor,
    };
    apply();
  }

  function pan(dxPixels, dyPixels) {
    const scale = unitsPerPixel();
    box.x -= dxPixels * scale;
    box.y -= dyPixels * scale;
    apply();
  }

  function reset() {
    box = centred(fitScale);
    apply();
  }

  /* Keep a focused card or cell on screen: keyboard users cannot drag. */
  function reveal(element) {
    if (!element.getBBox) return;
    const b = element.getBBox();
    let { x, y } = box;
    if (b.x < x) x = b.x - 10;
    if (b.y < y) y = b.y - 10;
    if (b.x + b.width > x + box.w) x = b.x + b.width - box.w + 10;
    if (b.y + b.height > y + box.h) y = b.y + b.height - box.h + 10;
    if (x !== box.x || y !== box.y) {
      box.x = x;
      box.y = y;
      apply();
    }
  }

  /* The part of the board the picture really shows (the viewBox keeps its aspect, so one side shows more). */
  function shown() {
    const rect = svg.getBoundingClientRect();
    const scale = unitsPerPixel();
    const w = rect.width * scale;
    const h = rect.height * scale;
    return { x: box.x + box.w / 2 - w / 2, y: box.y + box.h / 2 - h / 2, w, h };
  }

  /* Bring all of `elements` (the cells a tapped card lights) into the picture, clear of the stuck
     coordinate labels: zoom out as far as needed (never past the whole board), then centre on them. */
  function show(elements) {
    const b = boundsOf(elements);
    if (!b) return;
    const room = { x: b.x - LABEL_BAND - PAD, y: b.y - LABEL_BAND - PAD, w: b.w + LABEL_BAND + 2 * PAD, h: b.h + LABEL_BAND + 2 * PAD };
    let view = shown();
    const inside = room.x >= view.x && room.y >= view.y && room.x + room.w <= view.x + view.w && room.y + room.h <= view.y + view.h;
    if (inside) return;
    if (room.w > view.w || room.h > view.h) zoom(Math.min(view.w / room.w, view.h / room.h));
    view = shown();
    box.x += room.x + room.w / 2 - (view.x + view.w / 2);
    box.y += room.y + room.h / 2 - (view.y + view.h / 2);
    apply();
  }

  svg.addEventListener("pointerdown", (event) => {
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 1) {
      drag = { x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
      swallowClick = false;
    } else if (pointers.size === 2) {
      pinch = pinchState(pointers);
      drag = null;
    }
  });
  svg.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pinch && pointers.size === 2) {
      const now = pinchState(pointers);
      zoom(now.distance / pinch.distance, toBoard(now.x, now.y));
      pinch = now;
      swallowClick = true;
      return;
    }
    if (!drag || drag.id !== event.pointerId) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_PX) return;
    if (!drag.moved) svg.setPointerCapture(event.pointerId);
    drag.moved = true;
    swallowClick = true;
    pan(dx, dy);
    drag.x = event.clientX;
    drag.y = event.clientY;
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (drag && drag.id === event.pointerId) drag = null;
  };
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);
  /* The click that ends a drag is not a pick. */
  svg.addEventListener("click", (event) => {
    if (swallowClick) {
      event.stopPropagation();
      event.preventDefault();
      swallowClick = false;
    }
  }, true);
  svg.addEventListener("wheel", (event) => {
    if (!event.ctrlKey && !event.metaKey) return; /* a plain wheel scrolls the page */
    event.preventDefault();
    zoom(Math.exp(-event.deltaY / 300), toBoard(event.clientX, event.clientY));
  }, { passive: false });
  wrap.addEventListener("keydown", (event) => {
    if (event.target !== wrap) return;
    const step = 40;
    const keys = {
      "+": () => zoom(1.25), "=": () => zoom(1.25), "-": () => zoom(0.8), "0": reset,
      ArrowLeft: () => pan(step, 0), ArrowRight: () => pan(-step, 0),
      ArrowUp: () => pan(0, step), ArrowDown: () => pan(0, -step),
    };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
  if (controls) {
    controls.hidden = false;
    controls.addEventListener("click", (event) => {
      const button = event.target.closest("[data-zoom]");
      if (!button) return;
      ({ in: () => zoom(1.25), out: () => zoom(0.8), fit: reset })[button.dataset.zoom]();
    });
  }
  return { zoom, pan, reset, reveal, show };
}

/* The board-unit rectangle around all of `elements`, or null for none. */
function boundsOf(elements) {
  const boxes = [...elements].filter((el) => el.getBBox).map((el) => el.getBBox());
  if (!boxes.length) return null;
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: left, y: top, w: right - left, h: bottom - top };
}

function middleOf(elements) {
  const b = boundsOf(elements);
  return b && { x: b.x + b.w / 2, y: b.y + b.h / 2 };
}

function readViewBox(svg) {
  const [x, y, w, h] = svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
  return { x, y, w, h };
}

function pinchState(pointers) {
  const [a, b] = [...pointers.values()];
  return { distance: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/* The picture takes the width it is given (never larger than life) and a height that shows the
   whole board at that width, or at the smallest legible scale, within most of the screen's height. */
function sizeToScreen(wrap, svg, fit, legible) {
  const width = Math.min(wrap.clientWidth || fit.w, fit.w);
  const scale = Math.max(Math.min(1, legible), width / fit.w);
  const height = Math.max(200, Math.min(fit.h * scale, window.innerHeight * 0.7));
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.style.width = "100%";
  svg.style.maxWidth = `${fit.w}px`;
  svg.style.height = `${Math.round(height)}px`;
}
