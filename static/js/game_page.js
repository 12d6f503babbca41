/* The game page, better with JavaScript (docs/board.md). The server-rendered page stays the truth:
   this module only (1) lets the player build a move by clicking the board and the hand, then sends
   it through the page's own notation form, (2) pans and zooms the board, and (3) polls ply.json so
   a page left open notices another player's move (or a sealed choice the game makes public) and swaps
   in the new position. Without it the page works as it is: the move list and the notation form. The
   click-to-move builder is the game's own module (the page data's "module", BoardScript.module),
   imported when there is a move to build. */

import { attachZoom } from "./board_zoom.js";
import { listenForNextKey, showWaiting } from "./turns.js";
import { watchWhileVisible } from "./watching.js";

const page = {
  data: null,
  builder: null,
  timer: null,
  swapping: null, /* the swap in flight (a promise), so a poll and a Confirm never swap twice */
  polling: null, /* the poll's request in flight (a promise): the watch's beacon waits for its answer */
  confirming: false, /* a move is on its way: no poll swaps the page from under it */
};

function readData() {
  const script = document.getElementById("zc-play-data");
  return script ? JSON.parse(script.textContent) : null;
}

/* The game's builder module, imported once (the browser caches it across page swaps). */
async function builderFor(data) {
  const module = await import(data.module);
  return module.attachBuilder;
}

async function init() {
  page.data = readData();
  if (!page.data) return;
  const wrap = document.getElementById("board");
  const svg = wrap && wrap.querySelector("svg.zc-board");
  /* A board too big for the screen opens on the viewer's own pyramids, or on what the picture marks
     with data-zoom-focus (what the game wants seen first). A board of cards pans and zooms, and so does
     a picture that names the scale its labels need (data-min-scale). */
  const mine = svg && page.data.viewer ? [...svg.querySelectorAll(`.zc-piece[data-colour="${page.data.viewer}"]`)] : [];
  const focus = mine.length || !svg ? mine : svg.querySelectorAll("[data-zoom-focus]");
  const zoomable = svg && (svg.querySelector(".zc-square") || svg.dataset.minScale);
  const zoom = zoomable ? attachZoom(wrap, svg, document.getElementById("zc-zoom"), focus) : null;
  if (page.builder) page.builder.detach();
  page.builder = null;
  const panel = document.getElementById("zc-builder");
  if (panel && svg && page.data.moves.length && page.data.module) {
    const attachBuilder = await builderFor(page.data);
    page.builder = attachBuilder({
      data: page.data,
      board: svg,
      hand: document.querySelector("svg.zc-hand"),
      panel,
      zoom,
      onConfirm: confirmMove,
    });
    /* A builder that makes every move itself hides the one-click buttons it repeats. */
    if (!page.builder.keepsQuickButtons) document.querySelector(".zc-move")?.classList.add("zc-move--with-board");
  }
  document.querySelectorAll(".zc-log").forEach((log) => { log.scrollTop = log.scrollHeight; });
  document.documentElement.dataset.zcReady = String(page.data.ply); /* for the browser tests to wait on */
}

/* Send the built move through the notation form (it carries the CSRF token and the ply this page
   shows). If the game moved on meanwhile, show the new position instead of sending a stale move,
   unless only the others' simultaneous moves came between (the server accepts those: docs/service.md). */
async function confirmMove(text) {
  if (page.confirming) return;
  page.confirming = true;
  const built = page.data.ply; /* the position the move was built on */
  /* A poll's swap may be under way (another seat's sealed choice, or a move): the form is read after
     it, since the swap replaces it and a detached form's submit() sends nothing. */
  if (page.swapping) await page.swapping;
  const news = await fetchPly().catch(() => null);
  if (page.swapping) await page.swapping; /* a poll that asked before this Confirm began */
  if (page.data.ply !== built) {
    page.confirming = false; /* the swap showed a new position: the move is built again on it */
    return;
  }
  if (news && news.ply !== built && !movedAlongside(news)) {
    page.confirming = false;
    await refresh(news);
    return;
  }
  const form = document.querySelector("form.zc-type");
  if (!form) {
    page.confirming = false;
    return;
  }
  form.querySelector("[name=text]").value = text;
  const button = document.querySelector("[data-builder=confirm]");
  if (button) {
    button.disabled = true;
    button.textContent = "Sending\u2026";
  }
  form.submit();
}

/* Whether the page's position had several movers, the viewer among them, and only others moved since. */
function movedAlongside(news) {
  const viewer = page.data.viewer;
  const movers = page.data.movers || [];
  return movers.length > 1 && movers.includes(viewer) && news.movers.includes(viewer) && !news.moved.includes(viewer);
}

/* Kept in page.polling while it is on its way: a player's ply.json also tells the server they watch. */
function fetchPly() {
  const asked = askPly().finally(() => { if (page.polling === asked) page.polling = null; });
  page.polling = asked;
  return asked;
}

/* A seated player's page also asks for their own games waiting (mine=1): the title and "Next game". */
async function askPly() {
  const mine = page.data.viewer ? "&mine=1" : "";
  const url = `${page.data.ply_url}?since=${page.data.ply}${mine}`;
  const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
  if (!response.ok) throw new Error(`ply.json answered ${response.status}`);
  const news = await response.json();
  showWaiting(news, page.data.title);
  return news;
}

async function poll() {
  if (document.hidden || page.swapping || page.confirming || !page.data) return;
  const news = await fetchPly().catch(() => null);
  if (!news || page.confirming) return; /* a Confirm began meanwhile: its own check decides */
  news.chose = news.ply === page.data.ply ? sealedSince(news) : [];
  if (news.ply !== page.data.ply || (news.status === "finished") !== !page.data.active || news.chose.length) {
    await refresh(news);
  }
}

/* The seats the game stopped waiting on with no ply: their sealed choice is in, and the game makes that
   public (never what they chose), so the page swaps in who has chosen and whom the game still waits on. */
function sealedSince(news) {
  return (page.data.waited_on || []).filter((colour) => !news.movers.includes(colour));
}

/* Fetch the page again and swap the game in place (the chat draft and the scroll position stay). */
function refresh(news) {
  if (!page.swapping) page.swapping = swap(news).finally(() => { page.swapping = null; });
  return page.swapping;
}

async function swap(news) {
  try {
    const response = await fetch(pageUrl(), { cache: "no-store" });
    if (!response.ok) throw new Error(`the page answered ${response.status}`);
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html").querySelector(".zc-game");
    const old = document.querySelector(".zc-game");
    if (!fresh || !old) throw new Error("no game on the page");
    const draft = old.querySelector(".zc-chat-form textarea");
    const draftText = draft ? draft.value : "";
    old.replaceWith(fresh);
    const newDraft = fresh.querySelector(".zc-chat-form textarea");
    if (newDraft) newDraft.value = draftText;
    await init();
    notice(news);
  } catch (error) {
    window.location.assign(pageUrl()); /* never a reload: this may be the answer to a refused POST */
  }
  schedule();
}

/* The game page (with ?history=all if asked), also when this document answered a refused move. */
function pageUrl() {
  const here = window.location.pathname === page.data.page_url;
  return page.data.page_url + (here ? window.location.search : "");
}

function notice(news) {
  const box = document.getElementById("zc-notice");
  if (!box) return;
  const who = [...new Set((news && news.moved) || [])].map((c) => (c === page.data.viewer ? "you" : c));
  const chose = (news && news.chose) || [];
  const sealed = chose.length ? `${chose.join(" and ")} made a sealed choice` : "the game moved on";
  const moved = who.length ? `${who.join(" and ")} moved` : sealed;
  box.textContent = `${moved.charAt(0).toUpperCase()}${moved.slice(1)} \u2014 the board was updated.`;
  box.hidden = false;
}

function schedule() {
  clearInterval(page.timer);
  page.timer = null;
  if (!page.data || !page.data.active) return;
  page.timer = setInterval(poll, Math.max(1, page.data.poll_seconds) * 1000);
}

document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
listenForNextKey();
init();
schedule();
/* A player's page says at once that they are watching (the poll), and when they stop (watching.js). */
if (page.data && page.data.viewer && page.data.active) {
  watchWhileVisible(page.data.unwatched_url, () => page.polling);
  poll();
}
