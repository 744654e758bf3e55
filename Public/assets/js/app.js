// Entry point of the app shell (/app/…): language, header, session handling, routing, PWA.

import { loadLanguage, t } from './i18n.js';
import { session, setUnauthorizedHandler } from './api/client.js';
import { currentPath, navigate, route, startRouter } from './router.js';
import { registerAppHeader } from '../components/app-header/app-header.js';
import { toast } from './ui.js';
import { forgetSettings, loadSettings, restoreAppearance, signOut } from './account.js';

await loadLanguage();
restoreAppearance();
registerAppHeader();
const skipLink = document.querySelector('.skip-link');
skipLink.textContent = t('skip');

const header = document.querySelector('app-header');
// Offline study starts once a page is up (at once offline).
const offline = (run) => setTimeout(() => session.token() && import('./offline/status.js').then(run, () => {}),
  navigator.onLine ? 2500 : 0);
let firstRender = true;
let routes = 0;

setUnauthorizedHandler(() => {
  forgetSettings();
  const here = currentPath();
  if (here.startsWith('/app/login')) return;
  sessionStorage.setItem('fc.flash', 'session.expired');
  navigate(`/app/login?next=${encodeURIComponent(here)}`, { replace: true });
});

header.addEventListener('language-change', async (event) => {
  await loadLanguage(event.detail);
  skipLink.textContent = t('skip');
  header.render();
  await route();
});

header.addEventListener('logout', async () => {
  // Clears the local copy too.
  const out = await import('./offline/status.js').then((m) => m.signOut, () => signOut);
  if (!(await out())) return; // the learner chose to stay
  navigate('/app/login');
  toast(t('auth.loggedOut'));
});

await startRouter({
  beforeMount({ view, isPublic }) {
    // A navigation before the first page finished (a header link clicked while it loaded) is not
    // the first render any more: its heading takes the focus.
    routes += 1;
    if (routes > 1) firstRender = false;
    const signedIn = !isPublic && Boolean(session.token());
    header.view = view;
    header.signedIn = signedIn;
    // Theme and focus mode for the header and every screen; a server without settings is fine.
    if (signedIn) loadSettings().catch(() => {});
  },
  afterMount({ view, root }) {
    offline((m) => m.start(view));
    const heading = root.querySelector('h1');
    document.title = heading ? `${heading.textContent.trim()} · ${t('app.name')}` : t('app.name');
    // Move focus to the new page's heading so keyboard and screen reader users start there,
    // unless the view put it somewhere on purpose (a study session's answer box, a start button).
    const placed = root.contains(document.activeElement) && document.activeElement !== root;
    if (!firstRender && heading && !placed) {
      heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      scrollTo(0, 0);
    }
    firstRender = false;
  },
});

// After the first page:
if ('serviceWorker' in navigator && location.protocol !== 'file:') navigator.serviceWorker.register('/sw.js').catch(() => {});
