// Service worker: keeps the app shell (HTML, CSS, JS, icons) available offline, and shows the
// daily reminder the server sends by Web Push.
// API responses are never cached: /api/ requests and any request with a token (the original API's
// routes at the root, which offline study reads card numbers from) are not intercepted at all.
// Strategy: network first (always fresh when online), the cache as fallback.
// The server serves this file with CACHE named after a hash of the listed files' content
// (ServiceWorkerScript), so a changed file renews the cache without a version bumped by hand.
// Every file under Public/ is listed here, or named as left out in Tests/js/service-worker.test.mjs.

const CACHE = 'fc-shell';
const SHELL = [
  '/', '/app.html', '/manifest.webmanifest',
  '/assets/css/base.css', '/assets/css/app.css', '/assets/css/landing.css', '/assets/css/study.css', '/assets/css/stats.css',
  '/assets/css/more.css', '/assets/css/themes.css', '/assets/css/import.css', '/assets/css/rich-text.css',
  '/assets/css/offline.css', '/assets/css/glass.css',
  '/assets/components/app-header/app-header.css', '/assets/components/app-header/app-header.js',
  '/assets/components/flip-card/flip-card.css', '/assets/components/flip-card/flip-card.js',
  '/assets/components/color-picker/color-picker.css', '/assets/components/color-picker/color-picker.js',
  '/assets/components/card-draft/card-draft.js', '/assets/components/stats-chart/stats-chart.js',
  '/assets/js/appearance.js', '/assets/js/app.js', '/assets/js/landing.js', '/assets/js/html.js', '/assets/js/i18n.js', '/assets/js/router.js', '/assets/js/ui.js',
  '/assets/js/api/client.js', '/assets/js/api/generation.js', '/assets/js/api/jobs.js', '/assets/js/api/transfer.js',
  '/assets/js/api/partner.js', '/assets/js/partner-panel.js', '/assets/js/partner-markup.js', '/assets/css/partner.css',
  '/assets/js/draft-editor.js', '/assets/js/dropzone.js', '/assets/js/views/import.js', '/assets/js/rich-text.js', '/assets/css/write.css',
  '/assets/js/share-dialog.js', '/assets/js/views/shared.js', '/assets/js/card-pages.js',
  '/assets/js/views/explore.js', '/assets/js/views/explore-entry.js', '/assets/css/explore.css',
  '/assets/i18n/explore.de.js', '/assets/i18n/explore.en.js',
  '/assets/i18n/magic.de.js', '/assets/i18n/magic.en.js',
  '/assets/js/study-session.js', '/assets/js/session-summary.js',
  '/assets/js/views/study.js', '/assets/js/views/feed.js', '/assets/js/views/match.js',
  '/assets/js/views/stats.js', '/assets/js/views/stats/workload.js', '/assets/js/views/stats/memory.js', '/assets/js/views/stats/break.js', '/assets/js/charts.js',
  '/assets/js/views/auth.js', '/assets/js/views/dashboard.js', '/assets/js/views/stack-form.js',
  '/assets/js/views/stack-detail.js', '/assets/js/views/card-form.js', '/assets/js/views/learn.js',
  '/assets/js/views/magic.js', '/assets/js/views/not-found.js', '/assets/js/views/offline.js',
  '/assets/js/views/password-reset.js',
  '/assets/js/views/import/state.js', '/assets/js/views/import/render.js', '/assets/js/views/import/screen.js',
  '/assets/js/views/magic/render.js', '/assets/js/views/magic/progress.js', '/assets/js/views/magic/screen.js',
  '/assets/js/views/magic/source-model.js', '/assets/js/views/magic/source-markup.js', '/assets/js/views/magic/source-view.js',
  '/assets/js/views/magic/passage-dialog.js', '/assets/css/source.css',
  '/assets/js/views/card-form/render.js', '/assets/js/views/card-form/preview.js', '/assets/js/views/card-form/images.js',
  '/assets/js/views/card-form/screen.js', '/assets/js/views/stack-detail/render.js', '/assets/js/views/stack-detail/screen.js',
  '/assets/js/views/stack-form/render.js',
  '/assets/components/rating-bar/rating-bar.js', '/assets/components/modal-dialog/modal-dialog.js',
  '/assets/js/views/learn/screen.js', '/assets/js/views/learn/markup.js', '/assets/js/views/learn/answer.js',
  '/assets/js/views/learn/flashcards.js', '/assets/js/views/learn/quiz.js', '/assets/js/views/learn/write.js',
  '/assets/js/views/learn/end.js',
  '/assets/js/views/home/blocks.js', '/assets/js/views/home/screen.js',
  '/assets/js/views/feed/screen.js', '/assets/js/views/feed/markup.js', '/assets/js/views/feed/gestures.js',
  '/assets/js/views/settings/screen.js', '/assets/js/views/settings/markup.js', '/assets/js/views/settings/reminders.js',
  '/assets/js/views/settings/push.js', '/assets/js/views/settings/appearances.js', '/assets/js/views/settings/delete-dialog.js',
  '/assets/js/views/settings/scheduler.js',
  '/assets/js/views/settings/easy-days.js',
  '/assets/js/views/settings/tokens.js', '/assets/js/views/settings/tokens-markup.js',
  '/assets/js/views/settings/identities.js', '/assets/js/views/settings/identities-markup.js',
  '/assets/js/api/oidc.js', '/assets/js/views/auth/oidc.js', '/assets/i18n/oidc.de.js', '/assets/i18n/oidc.en.js',
  '/assets/js/views/match/game.js', '/assets/js/views/match/markup.js',
  '/assets/js/views/explore/screen.js', '/assets/js/views/explore/markup.js',
  '/assets/js/views/welcome/screen.js', '/assets/js/views/welcome/markup.js',
  '/assets/js/views/leaderboard/board.js', '/assets/js/views/leaderboard/markup.js',
  '/assets/js/account.js', '/assets/js/upgrade-dialog.js', '/assets/js/backup-panel.js', '/assets/js/import-text.js', '/assets/js/progress-ui.js', '/assets/js/views/home.js', '/assets/js/views/welcome.js',
  '/assets/js/views/settings.js', '/assets/js/views/leaderboard.js',
  '/assets/js/offline/store.js', '/assets/js/offline/scheduler.js', '/assets/js/offline/answers.js',
  '/assets/js/offline/sync.js', '/assets/js/offline/local-study.js', '/assets/js/offline/status.js',
  '/assets/js/offline/views.js', '/assets/js/offline/sides.js', '/assets/js/offline/core-constants.js',
  '/assets/i18n/de.js', '/assets/i18n/en.js', '/assets/i18n/more.de.js', '/assets/i18n/more.en.js',
  '/assets/i18n/workload.de.js', '/assets/i18n/workload.en.js',
  '/assets/i18n/stats.de.js', '/assets/i18n/stats.en.js',
  '/assets/i18n/tokens.de.js', '/assets/i18n/tokens.en.js',
  '/assets/i18n/partner.de.js', '/assets/i18n/partner.en.js',
  '/assets/i18n/import.de.js', '/assets/i18n/import.en.js',
  '/assets/js/views/oauth-consent.js', '/assets/js/views/oauth/screen.js', '/assets/js/views/oauth/markup.js',
  '/assets/i18n/oauth.de.js', '/assets/i18n/oauth.en.js',
  '/assets/icons/logo.svg', '/assets/icons/icon-192.png', '/assets/icons/apple-touch-icon.png',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin || url.pathname.startsWith('/api/')
    || request.headers.has('Authorization')) return;
  // Every /app/… navigation is the same shell.
  const isAppPage = request.mode === 'navigate' && url.pathname.startsWith('/app');
  const key = isAppPage ? '/app.html' : request;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === 'basic') {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((hit) => hit || Response.error())),
  );
});

// --- Reminders (Web Push) ---------------------------------------------------------------------
// The server sends JSON {title, body, url, tag}; a push without a readable payload still shows a
// gentle default, so the browser never has to show its own "updated in the background" notice.

const DEFAULT_REMINDER = {
  title: 'Smart Flashcards',
  body: 'Lust auf ein paar Karten? Schon fünf Minuten helfen deinem Gedächtnis.',
  url: '/app/home',
  tag: 'daily-reminder',
};

/** The payload of a push as a notification's fields (the German default where it lacks one). */
function reminderFrom(data) {
  let payload = {};
  try {
    payload = data ? data.json() : {};
  } catch {
    payload = {};
  }
  if (!payload || typeof payload !== 'object') payload = {};
  const text = (value, fallback) => (typeof value === 'string' && value.trim() ? value : fallback);
  const url = text(payload.url, text(payload.data && payload.data.url, DEFAULT_REMINDER.url));
  return {
    title: text(payload.title, DEFAULT_REMINDER.title),
    body: text(payload.body, DEFAULT_REMINDER.body),
    tag: text(payload.tag, DEFAULT_REMINDER.tag),
    url,
  };
}

self.addEventListener('push', (event) => {
  const reminder = reminderFrom(event.data);
  event.waitUntil(self.registration.showNotification(reminder.title, {
    body: reminder.body,
    tag: reminder.tag,
    icon: '/assets/icons/icon-192.png',
    badge: '/assets/icons/icon-192.png',
    data: { url: reminder.url },
  }));
});

/** A URL of this app, or the home screen for anything else (no other origin is opened). */
function sameOriginUrl(value) {
  try {
    const url = new URL(value || '/app/home', self.location.origin);
    return url.origin === self.location.origin ? url.href : new URL('/app/home', self.location.origin).href;
  } catch {
    return new URL('/app/home', self.location.origin).href;
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = sameOriginUrl(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    // An open window of the app comes forward as it is (a session in it is not interrupted);
    // without one, the reminder's page opens.
    const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
    if (open) return open.focus();
    return self.clients.openWindow(target);
  })());
});
