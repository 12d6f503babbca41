/* Quiet while you watch (docs/notifications.md): a seated player's poll (ply.json&mine=1, sent only
   while the tab is visible) tells the server they are watching the game, so their turn email waits a
   few minutes. When the tab goes hidden or the page goes away, a beacon says they no longer are, and
   the next turn email is not held back. */

let told = null;

/* `polling()` answers the page's poll in flight (a promise), or null. A poll sent just before the tab went
   hidden may reach the server after the beacon and write the watch again (the server serves requests
   side by side, in any order): once that poll has answered, a tab still hidden says it again. */
export function watchWhileVisible(url, polling) {
  if (told === url) return; /* once per page, however often the game is swapped in */
  told = url;
  const left = () => {
    const token = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (!token || !navigator.sendBeacon) return;
    const body = new FormData();
    body.append("csrfmiddlewaretoken", token.value);
    navigator.sendBeacon(url, body);
  };
  /* A tab switched away from, a window minimised, a page closed or left: each makes the page hidden
     first (the Page Lifecycle's last event a browser reliably fires), so one listener covers them. */
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) return;
    left();
    const inFlight = polling();
    const again = () => { if (document.hidden) left(); };
    if (inFlight) inFlight.then(again, again);
  });
}
