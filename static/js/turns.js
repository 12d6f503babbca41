/* The games waiting for your move, seen from the game page (docs/board.md): the tab's title and icon
   count them, the "Next game" button names the one with the least time left, and the n key opens it.
   The server renders all three; game_page.js hands each answer of its poll (ply.json&mine=1) here. */

const TITLE = (count) => `(${count}) Your move - zarkcity`;

/* `news.waiting` and `news.next` come only to a seated player's page; `ownTitle` is the page's own. */
export function showWaiting(news, ownTitle) {
  if (!news || typeof news.waiting !== "number") return;
  document.title = news.waiting ? TITLE(news.waiting) : ownTitle;
  const icon = document.querySelector('link[rel="icon"]');
  if (icon) icon.setAttribute("href", icon.getAttribute("href").replace(/\d+\.svg$/, `${news.waiting}.svg`));
  const link = document.querySelector("[data-next-game]");
  if (!link) return;
  link.hidden = !news.next;
  const label = link.querySelector("[data-next-label]");
  if (label) label.textContent = news.next ? `Next game: ${news.next.name}` : "Next game";
}

/* n opens the next game, unless the player is typing (a move, a chat line). */
export function listenForNextKey() {
  document.addEventListener("keydown", (event) => {
    if (event.key !== "n" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    const link = document.querySelector("[data-next-game]");
    if (!link || link.hidden) return;
    event.preventDefault();
    window.location.assign(link.href);
  });
}
