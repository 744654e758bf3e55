// Images on the card form (views/card-form.js): from the picker, the camera, the clipboard or a drop
// onto a text field; uploaded, then their Markdown goes to the cursor of the text field used last (a
// card with an image is rich). CardImages owns the uploads under way.

import { currentLanguage, t } from '../../i18n.js';
import { api } from '../../api/client.js';

/** The largest image the server takes (CardImageProcessor.maximumBytes). */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The error codes of an image upload the form words itself in English. */
const IMAGE_ERRORS = ['payload_too_large', 'unsupported_media_type', 'image_invalid', 'image_quota', 'image_processing'];

/** The files a paste or drop brings (images only when `imagesOnly`). */
const filesOf = (transfer, imagesOnly) => [...(transfer?.files ?? [])]
  .filter((file) => !imagesOnly || file.type.startsWith('image/'));

/** Puts `markdown` at the cursor of `field` (a space apart from the words around it). */
function insertAtCursor(field, markdown) {
  const { value } = field;
  const start = field.selectionStart ?? value.length;
  const end = field.selectionEnd ?? value.length;
  const before = start > 0 && !/\s/.test(value[start - 1]) ? ' ' : '';
  const after = end < value.length && !/\s/.test(value[end]) ? ' ' : '';
  field.focus();
  field.setRangeText(before + markdown + after, start, end, 'end');
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** The words for a refused upload: the server's German message, or ours by its code. */
function imageErrorText(error) {
  if (error.status === 0) return t('error.network');
  if (currentLanguage() === 'de' && error.message && error.code) return error.message;
  const code = IMAGE_ERRORS.find((known) => error.code === known);
  return code ? t(`card.image.error.${code}`) : t('card.image.error');
}

export class CardImages {
  /**
   * `root`: the page; `fields`: {question, answer, hint, rich}; `submit`: the form's button (off while
   * uploading); `onInserted()`: after an image went into the text (the preview follows).
   */
  constructor(root, { fields, submit, onInserted }) {
    const $ = (sel) => root.querySelector(sel);
    this.root = root;
    this.fields = fields;
    this.submit = submit;
    this.onInserted = onInserted;
    this.el = {
      status: $('#image-status'), error: $('#image-error'), alt: $('#image-alt'), tools: $('#image-tools'),
      imageFile: $('#image-file'), photoFile: $('#photo-file'), takePhoto: $('#take-photo'),
    };
    this.textFields = [fields.question, fields.answer, fields.hint];
    this.lastField = fields.question;
    this.uploading = 0;
    this.listen();
  }

  get busy() { return this.uploading > 0; }

  listen() {
    const { el } = this;
    el.takePhoto.hidden = !matchMedia('(pointer: coarse)').matches;
    this.root.querySelector('#insert-image').addEventListener('click', () => el.imageFile.click());
    el.takePhoto.addEventListener('click', () => el.photoFile.click());
    for (const input of [el.imageFile, el.photoFile]) {
      input.addEventListener('change', () => {
        const files = [...input.files];
        input.value = ''; // the same file may be chosen again
        if (files.length) this.upload(files);
      });
    }
    for (const field of this.textFields) this.listenField(field);
  }

  /** A text field takes pasted and dropped images (text is pasted as text). */
  listenField(field) {
    field.addEventListener('focus', () => { this.lastField = field; });
    field.addEventListener('paste', (event) => {
      const files = filesOf(event.clipboardData, true);
      if (!files.length) return;
      event.preventDefault();
      this.lastField = field;
      this.upload(files, field);
    });
    field.addEventListener('dragover', (event) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault(); // allows the drop (a file would otherwise open in the tab)
      event.dataTransfer.dropEffect = 'copy';
      field.classList.add('is-drop-target');
    });
    field.addEventListener('dragleave', () => field.classList.remove('is-drop-target'));
    field.addEventListener('drop', (event) => {
      field.classList.remove('is-drop-target');
      const files = filesOf(event.dataTransfer, false);
      if (!files.length) return;
      event.preventDefault();
      this.lastField = field;
      this.upload(files, field);
    });
  }

  /** The field an image goes into: the one used last, unless the card kind hides it. */
  targetField() {
    return this.lastField.closest('[hidden]') ? this.fields.question : this.lastField;
  }

  /** The image's Markdown with the description typed for it (brackets and backslashes escaped). */
  markdown(image) {
    const alt = this.el.alt.value.trim().replace(/[\r\n]+/g, ' ').replace(/[\\[\]]/g, (c) => `\\${c}`);
    return alt ? `![${alt}](image:${image.id})` : image.markdown;
  }

  showUploading() {
    this.submit.disabled = this.busy;
    this.el.tools.setAttribute('aria-busy', String(this.busy));
    if (this.busy) this.el.status.textContent = t('card.image.uploading');
  }

  showError(text) {
    this.el.status.textContent = '';
    this.el.error.textContent = text;
    this.el.error.hidden = false;
  }

  /** Uploads `files` one after the other into `field`. */
  async upload(files, field = this.targetField()) {
    this.el.error.hidden = true;
    for (const file of files) {
      if (file.size > MAX_IMAGE_BYTES) {
        this.showError(t('card.image.error.payload_too_large'));
        continue;
      }
      this.uploading += 1;
      this.showUploading();
      try {
        const image = await api.uploadImage(file);
        if (!this.root.isConnected) return;
        this.insert(field, image);
      } catch (error) {
        if (error.status === 401) return;
        this.showError(imageErrorText(error));
      } finally {
        this.uploading -= 1;
        this.showUploading();
      }
    }
  }

  insert(field, image) {
    const { rich } = this.fields;
    insertAtCursor(field, this.markdown(image));
    this.el.alt.value = '';
    let note = t('card.image.done');
    if (!rich.checked) {
      rich.checked = true; // an image shows on a rich card only
      note += ` ${t('card.image.madeRich')}`;
    }
    this.el.status.textContent = note;
    this.onInserted();
  }
}
