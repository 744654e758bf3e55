// Swipes and taps on the feed's card: pointer events cover touch, pen and a dragging mouse. The
// card follows the finger (`--dx`, `--dy`); a short move is a tap. Listeners end with `signal`.

/** A swipe is a move of at least this many CSS pixels; less is a tap. */
const SWIPE_PX = 60;
const TAP_PX = 10;

/** Calls `on.tap()`, `on.right()`, `on.left()`, `on.up()` or `on.down()` for a gesture on `el`. */
export function followGestures(el, on, signal) {
  let start = null;
  el.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    start = { x: event.clientX, y: event.clientY, id: event.pointerId };
    el.setPointerCapture?.(event.pointerId);
  }, { signal });
  el.addEventListener('pointermove', (event) => {
    if (!start || event.pointerId !== start.id) return;
    el.style.setProperty('--dx', `${event.clientX - start.x}px`);
    el.style.setProperty('--dy', `${event.clientY - start.y}px`);
    el.classList.add('is-dragging');
  }, { signal });
  const release = (event) => {
    if (!start || event.pointerId !== start.id) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    start = null;
    el.classList.remove('is-dragging');
    el.style.removeProperty('--dx');
    el.style.removeProperty('--dy');
    if (event.type !== 'pointercancel') gesture(dx, dy, on);
  };
  el.addEventListener('pointerup', release, { signal });
  el.addEventListener('pointercancel', release, { signal });
}

function gesture(dx, dy, on) {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  if (Math.max(ax, ay) < TAP_PX) on.tap();
  else if (ax >= ay && ax >= SWIPE_PX) (dx > 0 ? on.right : on.left)();
  else if (ay > ax && ay >= SWIPE_PX) (dy < 0 ? on.up : on.down)();
}
