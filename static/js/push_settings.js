/* Browser notifications on the settings page (docs/notifications.md, "Web Push"): register the site's
   service worker (/sw.js, scope /), subscribe this browser with the server's VAPID key and send the
   subscription to be stored, or turn this browser off. The list of browsers and their Remove buttons
   are plain forms. */

const box = document.getElementById("zc-push");
if (box) setUp(box).catch((error) => say(box, `Notifications could not be set up here: ${error.message}`));

function say(where, text) {
  where.querySelector("[data-push=status]").textContent = text;
}

function csrfToken() {
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

/* The VAPID key as the bytes pushManager.subscribe wants. */
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function setUp(where) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(where, "This browser cannot show notifications from web sites.");
    return;
  }
  const registration = await navigator.serviceWorker.register(where.dataset.worker, { scope: "/" });
  await navigator.serviceWorker.ready;
  const current = await registration.pushManager.getSubscription();
  const listed = current && where.querySelector(`li[data-endpoint="${CSS.escape(current.endpoint)}"]`);
  if (listed) listed.querySelector("[data-push=this]").hidden = false;
  where.querySelector("[data-push=on]").hidden = Boolean(listed);
  where.querySelector("[data-push=off]").hidden = !listed;
  where.querySelector("[data-push=on]").addEventListener("click", () => turnOn(where, registration));
  where.querySelector("[data-push=off]").addEventListener("click", () => turnOff(where, registration));
}

async function turnOn(where, registration) {
  if ((await Notification.requestPermission()) !== "granted") {
    say(where, "This browser blocks notifications from this site: allow them in its site settings, then try again.");
    return;
  }
  let subscription;
  try {
    subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(where.dataset.key),
    });
  } catch (error) {
    say(where, `This browser could not subscribe (its push service answered: ${error.message}).`);
    return;
  }
  const response = await fetch(where.dataset.subscribe, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(subscription.toJSON()),
  });
  if (!response.ok) {
    const answer = await response.json().catch(() => ({}));
    say(where, answer.error || `The site refused the subscription (${response.status}).`);
    await subscription.unsubscribe();
    return;
  }
  window.location.reload();
}

async function turnOff(where, registration) {
  const subscription = await registration.pushManager.getSubscription();
  if (subscription) {
    const form = new FormData();
    form.append("csrfmiddlewaretoken", csrfToken());
    form.append("endpoint", subscription.endpoint);
    await fetch(where.dataset.remove, { method: "POST", body: form });
    await subscription.unsubscribe();
  }
  window.location.reload();
}
