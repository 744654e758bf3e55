// Settings (/app/settings): profile (name, time zone: `PATCH /me`), the account (a guest secures
// it, everyone else changes the password), learning (daily goal, language, "Spielelemente", focus
// mode), reminders (Web Push when the browser can, else the in-app note on the home screen), the
// leaderboard opt-in, the onboarding answers, the colour theme, AI assistants and their access
// tokens (settings/tokens.js), the OpenID providers linked to the account (settings/identities.js,
// when the server offers any or one is linked), data and backup (backup-panel.js: the account as a download, a
// backup restored into an account without stacks) and deleting the account. Switches and choices
// save at once; fields save with their form's button.
//
// This module loads the settings; settings/screen.js owns the screen's state and wires its
// sections (settings/markup.js draws them; reminders.js, push.js, appearance.js, delete-dialog.js,
// tokens.js, identities.js).

import { html, render } from '../html.js';
import { loadStrings, t } from '../i18n.js';
import { session } from '../api/client.js';
import { oidcApi } from '../api/oidc.js';
import { isGuest, loadSettings } from '../account.js';
import { errorText, errorView, loadStylesheet, loadingView, retryable } from '../ui.js';
import { loadProgressAssets, stale, userZone } from '../progress-ui.js';
import { SettingsScreen } from './settings/screen.js';

/** The result of a restore, for the page drawn again right after it (with the restored settings). */
let justRestored = null;

export const mount = retryable(mountSettings);

async function mountSettings(root, ctx, reload) {
  const restored = justRestored;
  justRestored = null;
  render(root, loadingView(t('loading')));
  loadStylesheet('/assets/css/glass.css'); // so that choosing Glas shows it at once (scoped to it)
  let settings;
  // The server's OpenID providers (for "Anmeldung mit anderen Konten"); null when unknown.
  const providers = oidcApi.providers().then((body) => body?.providers || [], () => null);
  try {
    await Promise.all([loadProgressAssets(), loadStrings('tokens'), loadStrings('oidc')]);
    settings = await loadSettings({ force: true });
  } catch (error) {
    if (error.status === 401 || stale(ctx)) return undefined;
    render(root, html`<section class="page page-narrow">${errorView(errorText(error, 'settings.error'))}</section>`);
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  const offered = await providers;
  if (stale(ctx)) return undefined;
  const user = session.user() || {};
  return new SettingsScreen(root, {
    settings,
    user,
    guest: isGuest(),
    zone: user.timeZone || userZone(),
    providers: offered,
    restored,
    onRestored(result) {
      justRestored = result;
      reload();
    },
    navigate: ctx.navigate,
    reload,
  }).start();
}
