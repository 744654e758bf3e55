// Drag and drop onto a dropzone (a `<label class="dropzone">` of a file input): a dropped file goes
// into the input, as if chosen there, and the input's `change` event fires (the browser would
// otherwise open the file); and a chosen file's size in words. Used by "Automatisch erstellen" and
// the import.

import { html } from './html.js';
import { formatNumber } from './i18n.js';
import { icon } from './ui.js';

/** A file size for people: "850 KB", "2,5 MB". */
export const sizeText = (bytes) => bytes >= 1024 * 1024
  ? `${formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`
  : `${formatNumber(Math.max(1, Math.round(bytes / 1024)))} KB`;

/** The main file field of a page: a labelled dropzone around the file input `id`, with a help
 * line and a place for the chosen file's name (`${id}-name`). */
export const fileDropzone = ({ id, label, title, help, accept }) => html`
  <div class="field">
    <span class="label" id="${id}-label">${label}</span>
    <label class="dropzone dropzone-primary">
      ${icon('upload')}
      <span class="dropzone-title">${title}</span>
      <span class="small muted" id="${id}-help">${help}</span>
      <span class="small dropzone-file" id="${id}-name"></span>
      <input class="dropzone-input" id="${id}" type="file" accept="${accept}"
        aria-labelledby="${id}-label" aria-describedby="${id}-help" data-describedby="${id}-help">
    </label>
  </div>`;

/** Makes `zone` take dropped files for `input`. */
export function acceptDrops(zone, input) {
  const over = (on) => zone.classList.toggle('is-dragover', on);
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    over(true);
  });
  zone.addEventListener('dragleave', (event) => { if (!zone.contains(event.relatedTarget)) over(false); });
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    over(false);
    if (!event.dataTransfer?.files.length) return;
    input.files = event.dataTransfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
