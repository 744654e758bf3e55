// Service worker: keeps the app shell (HTML, CSS, JS, icons) available offline.
// API responses are never cached: /api/ requests are not intercepted at all.
// Strategy: network first (always fresh when online), the cache as fallback.

const CACHE = 'fc-shell-v3';
const SHELL = [
  '/', '/app.html', '/manifest.webmanifest',
  '/assets/css/base.css', '/assets/css/app.css', '/assets/css/landing.css', '/assets/css/study.css',
  '/assets/components/app-header/app-header.css', '/assets/components/app-header/app-header.js',
  '/assets/components/flip-card/flip-card.css', '/assets/components/flip-card/flip-card.js',
  '/assets/components/color-picker/color-picker.css', '/assets/components/color-picker/color-picker.js',
  '/assets/js/app.js', '/assets/js/landing.js', '/assets/js/html.js', '/assets/js/i18n.js', '/assets/js/router.js', '/assets/js/ui.js',
  '/assets/js/api/client.js', '/assets/js/api/generation.js', '/assets/js/draft-editor.js',
  '/assets/js/study-session.js', '/assets/js/session-summary.js',
  '/assets/js/views/study.js', '/assets/js/views/feed.js', '/assets/js/views/match.js',
  '/assets/js/views/stats.js', '/assets/js/charts.js',
  '/assets/js/views/auth.js', '/assets/js/views/dashboard.js', '/assets/js/views/stack-form.js',
  '/assets/js/views/stack-detail.js', '/assets/js/views/card-form.js', '/assets/js/views/learn.js',
  '/assets/js/views/magic.js', '/assets/js/views/not-found.js', '/assets/js/views/offline.js',
  '/assets/js/views/password-reset.js',
  '/assets/i18n/de.js', '/assets/i18n/en.js',
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
  if (request.method !== 'GET' || url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
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
