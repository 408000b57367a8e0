// Tab order in the window follows the layout — sidebar toggle, sidebar,
// chat header, messages, cards, composer — and wraps around at both ends:
// a desktop window has no browser toolbar to Tab into, so past the last
// control (the composer's button) Tab comes back to the first instead of
// landing on <body>, and Shift+Tab from the first goes to the last.

const CANDIDATES = [
  'a[href]',
  'button:not(:disabled)',
  'input:not(:disabled):not([type="hidden"])',
  'select:not(:disabled)',
  'textarea:not(:disabled)',
  'summary',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]',
].join(',');

function visible(el: HTMLElement): boolean {
  if (typeof el.checkVisibility === 'function') return el.checkVisibility({ visibilityProperty: true });
  return el.getClientRects().length > 0;
}

/** The elements Tab stops at inside root, in order (no positive tabindex is used). */
export function tabbables(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(CANDIDATES)].filter(
    (el) => el.tabIndex >= 0 && !el.closest('[inert]') && visible(el),
  );
}

/**
 * Wraps Tab around root's first and last stops. Leaves the key alone when
 * something else handled it, when a modal dialog is open (it keeps focus
 * itself) and everywhere but the two ends.
 */
export function wrapTab(e: KeyboardEvent, root: HTMLElement | null): void {
  if (!root || e.key !== 'Tab' || e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey) return;
  if (document.querySelector('dialog[open]')) return;
  const stops = tabbables(root);
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) return;
  const a = document.activeElement;
  if (!e.shiftKey && a === last) {
    e.preventDefault();
    first.focus();
  } else if (e.shiftKey && a === first) {
    e.preventDefault();
    last.focus();
  }
}
