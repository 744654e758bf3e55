// <color-picker name="color" value="#059669" label="Farbe *">: preset swatches as a radio group
// plus a custom colour input. Keyboard: arrow keys move between swatches (native radios).

import { html, render } from '../../js/html.js';
import { t } from '../../js/i18n.js';
import { loadStylesheet } from '../../js/ui.js';

/** Preset colours: the design system's emerald first, then distinct, readable hues. */
const PRESETS = ['#059669', '#2563EB', '#7C3AED', '#DB2777', '#DC2626', '#EA580C', '#D97706', '#0891B2', '#4B5563'];

class ColorPicker extends HTMLElement {
  connectedCallback() {
    if (this.firstChild) return;
    const value = (this.getAttribute('value') || PRESETS[0]).toUpperCase();
    const name = this.getAttribute('name') || 'color';
    const custom = !PRESETS.includes(value);
    render(this, html`
      <fieldset class="swatches">
        <legend>${this.getAttribute('label') || t('stack.color')}</legend>
        <div class="swatch-row">
          ${PRESETS.map((c) => html`
            <label class="swatch" data-color="${c}">
              <input type="radio" name="${name}-preset" value="${c}" ${c === value ? 'checked' : ''}>
              <span class="visually-hidden">${t('stack.colorName', { value: c })}</span>
            </label>`)}
          <label class="swatch swatch-custom" title="${t('stack.customColor')}">
            <input type="radio" name="${name}-preset" value="custom" ${custom ? 'checked' : ''}>
            <input type="color" class="color-input" value="${value.toLowerCase()}" aria-label="${t('stack.customColor')}">
          </label>
        </div>
      </fieldset>`);
    this.addEventListener('change', (event) => {
      if (event.target.type === 'color') {
        this.querySelector('input[value=custom]').checked = true;
      }
      this.dispatchEvent(new CustomEvent('color-change', { detail: this.value, bubbles: true }));
    });
    this.addEventListener('input', (event) => {
      if (event.target.type !== 'color') return;
      this.querySelector('input[value=custom]').checked = true;
      this.dispatchEvent(new CustomEvent('color-change', { detail: this.value, bubbles: true }));
    });
  }

  /** The chosen colour as `#RRGGBB`. */
  get value() {
    const checked = this.querySelector('input[type=radio]:checked');
    if (!checked) return '';
    const v = checked.value === 'custom' ? this.querySelector('input[type=color]').value : checked.value;
    return v.toUpperCase();
  }
}

/**
 * Defines <color-picker> (once); resolves when its stylesheet applies (it comes with the element,
 * not with the app shell: only the stack form uses it).
 */
export function registerColorPicker() {
  if (!customElements.get('color-picker')) customElements.define('color-picker', ColorPicker);
  return loadStylesheet('/assets/components/color-picker/color-picker.css');
}
