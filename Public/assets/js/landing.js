// The landing page is static German HTML; this switches it to English when wanted and points
// signed-in visitors to their stacks.

import { currentLanguage, detectLanguage, loadLanguage, rememberLanguage, t } from './i18n.js';

function apply() {
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  const lang = document.getElementById('lang-switch');
  lang.lang = currentLanguage() === 'de' ? 'en' : 'de';
  document.title = `${t('app.name')} · ${t('landing.title')}`;
  if (localStorage.getItem('fc.token')) {
    const login = document.getElementById('login-link');
    login.href = '/app/stacks';
    login.firstElementChild.textContent = t('landing.toApp');
    document.getElementById('start-link').href = '/app/stacks';
  }
}

const initial = detectLanguage();
if (initial !== 'de' || localStorage.getItem('fc.token')) {
  await loadLanguage(initial);
  apply();
}

document.getElementById('lang-switch').addEventListener('click', async () => {
  const next = (document.documentElement.lang || 'de') === 'de' ? 'en' : 'de';
  rememberLanguage(next);
  await loadLanguage(next);
  apply();
});

if ('serviceWorker' in navigator) {
  addEventListener('load', () => navigator.serviceWorker.register('/sw.js').catch(() => {}));
}
