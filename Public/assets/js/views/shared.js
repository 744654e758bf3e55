// A shared stack (/app/shared/{token}): anyone with the link sees its cards, signed in or not; a
// signed-in learner copies it into their library (with their own, new progress). Card texts are
// shown as text, or as the server's sanitised HTML for rich cards (rich-text.js).

import { html, render } from '../html.js';
import { formatNumber, loadStrings, t } from '../i18n.js';
import { api, session } from '../api/client.js';
import { errorText, errorView, icon, loadStylesheet, loadingView } from '../ui.js';
import { showCardPages, wireCopyButton } from '../card-pages.js';

const PER_PAGE = 50;

export async function mount(root, ctx) {
  const { token } = ctx.params;
  render(root, loadingView(t('loading')));
  let stack;
  try {
    [stack] = await Promise.all([
      api.sharedStack(token, 1, PER_PAGE), loadStrings('more'), loadStylesheet('/assets/css/rich-text.css'),
    ]);
  } catch (error) {
    if (error.code === 'share_not_found' || error.status === 404) {
      await loadStrings('more').catch(() => {});
      render(root, html`
        <section class="page page-narrow">
          <div class="panel empty-state" role="alert">
            <h1>${t('shared.gone')}</h1>
            <p class="muted">${t('shared.goneText')}</p>
            <a class="btn btn-primary" href="/app">${t('back')}</a>
          </div>
        </section>`);
      root.querySelector('h1').focus?.();
      return;
    }
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', () => mount(root, ctx));
    return;
  }

  const signedIn = Boolean(session.token());
  render(root, html`
    <section class="page">
      <header class="page-head">
        <div>
          <h1 tabindex="-1">${stack.name}</h1>
          <p class="muted">${t('shared.lead', { count: formatNumber(stack.cardCount) })}</p>
          ${stack.description ? html`<p>${stack.description}</p>` : ''}
        </div>
        <div class="actions">
          ${signedIn
            ? html`<button type="button" class="btn btn-primary" id="copy-stack">${icon('plus')}<span>${t('shared.copy')}</span></button>`
            : html`<a class="btn btn-primary" href="/app/login">${t('shared.copy')}</a>`}
        </div>
      </header>
      <p class="help">${signedIn ? t('shared.copyHint') : t('shared.signIn')}</p>
      <section class="panel" aria-labelledby="shared-cards-title">
        <h2 id="shared-cards-title" class="visually-hidden">${t('detail.cardsTitle')}</h2>
        ${stack.cards.items.length ? '' : html`<p class="muted">${t('shared.empty')}</p>`}
        <ol class="shared-cards" id="shared-cards"></ol>
        <button type="button" class="btn btn-secondary" id="more-cards" hidden>${t('shared.more')}</button>
      </section>
    </section>`);
  root.querySelector('h1').focus({ preventScroll: true });

  showCardPages(root.querySelector('#shared-cards'), root.querySelector('#more-cards'), stack.cards,
    async (page) => (await api.sharedStack(token, page, PER_PAGE)).cards);

  wireCopyButton(root.querySelector('#copy-stack'), () => api.copySharedStack(token), 'shared.copied');
}
