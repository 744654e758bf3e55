// Drag and drop onto a dropzone (a `<label class="dropzone">` of a file input): a dropped file goes
// into the input, as if chosen there, and the input's `change` event fires (the browser would
// otherwise open the file); and a chosen file's size in words. Used by "Automatisch erstellen" and
// the import.

import { formatNumber } from './i18n.js';

/** A file size for people: "850 KB", "2,5 MB". */
export const sizeText = (bytes) => bytes >= 1024 * 1024
  ? `${formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`
  : `${formatNumber(Math.max(1, Math.round(bytes / 1024)))} KB`;

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
