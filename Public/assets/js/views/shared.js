// A shared stack (/app/shared/{token}): anyone with the link sees its cards, signed in or not; a
// signed-in learner copies it into their library (with their own, new progress). Card texts are
// shown as text, or as the server's sanitised HTML for rich cards (rich-text.js).

import { html, render } from '../html.js';
import { formatNumber, loadStrings, t } from '../i18n.js';
import { api, session } from '../api/client.js';
import { navigate } from '../router.js';
import { errorText, errorView, icon, loadStylesheet, loadingView, setBusy, toast } from '../ui.js';
import { setCardText } from '../rich-text.js';

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

  const list = root.querySelector('#shared-cards');
  const more = root.querySelector('#more-cards');
  let page = 1;
  function append(cards) {
    for (const card of cards.items) {
      const item = document.createElement('li');
      item.className = 'shared-card';
      for (const field of ['question', 'answer']) {
        const part = document.createElement('div');
        part.className = `shared-${field}`;
        setCardText(part, card, field);
        item.append(part);
      }
      list.append(item);
    }
    more.hidden = cards.page * cards.perPage >= cards.total;
  }
  append(stack.cards);
  more.addEventListener('click', async () => {
    setBusy(more, true);
    try {
      page += 1;
      append((await api.sharedStack(token, page, PER_PAGE)).cards);
    } catch (error) {
      page -= 1;
      toast(errorText(error), 'error');
    } finally {
      setBusy(more, false);
    }
  });

  root.querySelector('#copy-stack')?.addEventListener('click', async (event) => {
    const button = event.currentTarget;
    setBusy(button, true);
    try {
      const copy = await api.copySharedStack(token);
      toast(t('shared.copied', { name: copy.name }));
      navigate(`/app/stacks/${copy.id}`);
    } catch (error) {
      setBusy(button, false);
      if (error.status !== 401) toast(errorText(error), 'error');
    }
  });
}
