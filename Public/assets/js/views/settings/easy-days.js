// The settings' "Entspannte Tage": whether a rating's next day is chosen by the learner's load (the
// load balancer, docs/fsrs.md "Load balancer and easy days") and how much each weekday should get,
// Monday first. Each change is saved at once (`PATCH /me/settings`); the weekdays only count while
// the balancer is on, so their choices rest while it is off. Part of the settings screen.

import { html } from '../../html.js';
import { locale, t } from '../../i18n.js';
import { toggle } from './markup.js';

const LEVELS = ['normal', 'reduced', 'minimum'];
const ALL_NORMAL = Array(7).fill('normal');

/** The weekday names, Monday first, in the page's language (2024-01-01 was a Monday). */
function weekdays() {
  const format = new Intl.DateTimeFormat(locale(), { weekday: 'long', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, i) => format.format(Date.UTC(2024, 0, 1 + i)));
}

const easyDaysOf = (settings) => (Array.isArray(settings.easyDays) && settings.easyDays.length === 7 ? settings.easyDays : ALL_NORMAL);

/** The section's markup for the saved `settings`. */
export const easyDaysSection = ({ settings }) => {
  const on = settings.loadBalancing !== false;
  const days = easyDaysOf(settings);
  return html`
      <section class="panel" aria-labelledby="easy-days-title">
        <h2 id="easy-days-title">${t('easyDays.title')}</h2>
        ${toggle('load-balancing', t('easyDays.balancing'), t('easyDays.balancingHelp'), on)}
        <fieldset class="easy-days" id="easy-days" aria-describedby="easy-days-help" ${on ? '' : 'disabled'}>
          <legend>${t('easyDays.weekdays')}</legend>
          <p class="help" id="easy-days-help">${t(on ? 'easyDays.help' : 'easyDays.off')}</p>
          <div class="easy-days-grid">
            ${weekdays().map((name, i) => html`
              <label class="easy-day"><span>${name}</span>
                <select name="easyDay${i}" id="easy-day-${i}">
                  ${LEVELS.map((level) => html`<option value="${level}" ${days[i] === level ? 'selected' : ''}>${t(`easyDays.${level}`)}</option>`)}
                </select></label>`)}
          </div>
        </fieldset>
      </section>`;
};

export class EasyDaysSection {
  constructor(screen) {
    this.screen = screen;
    this.switch = screen.$('#load-balancing');
    this.fieldset = screen.$('#easy-days');
  }

  start() {
    const { screen } = this;
    screen.on('#load-balancing', 'change', () => this.#switched());
    for (let i = 0; i < 7; i += 1) screen.on(`#easy-day-${i}`, 'change', (event) => this.#chosen(event.target, i));
  }

  #show(on) {
    this.fieldset.disabled = !on;
    this.screen.$('#easy-days-help').textContent = t(on ? 'easyDays.help' : 'easyDays.off');
  }

  async #switched() {
    const on = this.switch.checked;
    if (await this.screen.saveFrom(this.switch, { loadBalancing: on }, () => { this.switch.checked = !on; })) this.#show(on);
  }

  async #chosen(select, index) {
    const before = easyDaysOf(this.screen.settings);
    const days = [...before];
    days[index] = select.value;
    await this.screen.saveFrom(select, { easyDays: days }, () => { select.value = before[index]; });
  }
}
