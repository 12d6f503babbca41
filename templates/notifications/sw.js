/* zarkcity's service worker (notifications.views_push.service_worker, served at /sw.js for the whole
   site): shows a Web Push ("Your move in Zark City #12 against bob") and opens the game on a click. */

self.addEventListener("push", (event) => {
  const data = event.data ? event.data.json() : {};
  const shown = self.registration.showNotification(data.title || "zarkcity", {
    body: data.body || "",
    tag: data.tag,
    data: { url: data.url || "/" },
  });
  event.waitUntil(shown);
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  const opened = self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((window) => window.url === url);
    return open ? open.focus() : self.clients.openWindow(url);
  });
  event.waitUntil(opened);
});
