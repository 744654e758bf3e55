// The settings' "Darstellung" (Hell, Dunkel, System, Glas): kept per device
// (not per account) in localStorage.

/** Appearances of "Darstellung". */
export const APPEARANCES = ['light', 'dark', 'system', 'glass'];
const APPEARANCE = 'fc.appearance';

/** This device's appearance ('system' unless another was chosen). */
export function appearance() {
  let saved = null;
  try { saved = localStorage.getItem(APPEARANCE); } catch { saved = null; }
  return APPEARANCES.includes(saved) ? saved : 'system';
}

/** Keeps an appearance on this device and shows it (appearance.js's `fcAppearance`, which also
 * applies it before the first paint of every page and in other tabs). */
export function setAppearance(value) {
  if (value === 'system') localStorage.removeItem(APPEARANCE);
  else localStorage.setItem(APPEARANCE, value);
  window.fcAppearance?.(value);
}
