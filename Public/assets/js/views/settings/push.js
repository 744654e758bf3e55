// Reminders by Web Push (the settings' "Erinnerungen"): this browser's subscription to the
// server's reminders, asked for, read and ended. Where a browser cannot subscribe, the home
// screen's in-app note reminds instead.

import { api } from '../../api/client.js';

/** The VAPID key (base64url) as bytes for `PushManager.subscribe`. */
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

const withTimeout = (promise, ms) => Promise.race([
  promise, new Promise((_, reject) => { setTimeout(() => reject(new Error('timeout')), ms); }),
]);

/** The service worker's push subscription, or null (no worker, no push, nothing subscribed). */
export async function currentSubscription() {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return null;
  try {
    const registration = await withTimeout(navigator.serviceWorker.ready, 3000);
    return await registration.pushManager.getSubscription();
  } catch {
    return null;
  }
}

/**
 * Asks for notifications and subscribes this browser to the server's reminders. Resolves with
 * 'subscribed', 'denied' (the learner or the browser said no) or 'unavailable' (no push service
 * here, e.g. a headless browser): the home screen's note reminds instead.
 */
export async function subscribeToReminders() {
  if (!('Notification' in window) || !('serviceWorker' in navigator) || !('PushManager' in window)) return 'unavailable';
  let permission = Notification.permission;
  if (permission === 'default') {
    try { permission = await Notification.requestPermission(); } catch { permission = 'denied'; }
  }
  if (permission !== 'granted') return 'denied';
  try {
    const registration = await withTimeout(navigator.serviceWorker.ready, 5000);
    let subscription = await registration.pushManager.getSubscription();
    if (!subscription) {
      const { publicKey } = await api.pushKey();
      subscription = await withTimeout(registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(publicKey),
      }), 10_000);
    }
    await api.addPushSubscription(subscription.toJSON());
    return 'subscribed';
  } catch (error) {
    if (error?.status === 401) throw error;
    return 'unavailable';
  }
}

/** Ends this browser's push subscription (the server forgets it too). */
export async function unsubscribeFromReminders() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try { await api.removePushSubscription(subscription.endpoint); } catch { /* it expires on the server */ }
  try { await subscription.unsubscribe(); } catch { /* gone already */ }
}
