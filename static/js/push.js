// The settings page's "Notifications on this device": subscribes this browser's service
// worker to the site's pushes (the site's VAPID public key in data-push-key) and hands
// the subscription to the site, or takes it back.
(() => {
  const panel = document.querySelector("[data-push]");
  if (!panel) return;
  const state = panel.querySelector("[data-push-state]");
  const toggle = panel.querySelector("[data-push-toggle]");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;

  const token = (JSON.parse(document.body.getAttribute("hx-headers") || "{}"))["X-CSRFToken"] || "";
  const post = (url, body) => fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "X-CSRFToken": token, "Accept": "application/json", "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }).then((response) => {
    if (!response.ok) return response.json().catch(() => ({})).then((answer) => { throw new Error(answer.reason || "The site did not answer."); });
    return response;
  });
  const key = () => {
    const text = panel.dataset.pushKey.replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(text + "=".repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  };

  let subscription = null;
  const show = (message) => {
    state.textContent = message || (subscription
      ? "Notifications are on for this device."
      : Notification.permission === "denied"
        ? "This browser blocks the site's notifications: allow them in its site settings first."
        : "Notifications are off for this device.");
    toggle.textContent = subscription ? "Turn off notifications on this device" : "Turn on notifications on this device";
    toggle.hidden = !subscription && Notification.permission === "denied";
  };

  const turnOn = async () => {
    if ((await Notification.requestPermission()) !== "granted") return show();
    const registration = await navigator.serviceWorker.ready;
    const made = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key() });
    await post("/settings/push/", made.toJSON());
    subscription = made;
    show();
  };
  const turnOff = async () => {
    const endpoint = subscription.endpoint;
    await subscription.unsubscribe();
    subscription = null;
    await post("/settings/push/off/", { endpoint });
    show();
  };

  toggle.addEventListener("click", () => {
    toggle.disabled = true;
    (subscription ? turnOff() : turnOn())
      .catch((error) => show(`Notifications could not be changed: ${error.message}`))
      .finally(() => { toggle.disabled = false; });
  });
  navigator.serviceWorker.ready
    .then((registration) => registration.pushManager.getSubscription())
    .then((found) => { subscription = found; show(); })
    .catch(() => show());
})();
