/**
 * A ref that focuses its element once, when the element is attached: what
 * React's `autoFocus` prop did. Preact (behind preact/compat) only sets the
 * HTML attribute, which a browser honours at page load and not for an
 * element added later, so a form opened by the person would not take the
 * keyboard. Being one function, Preact calls it at mount only, not on every
 * render.
 */
export function focusOnMount(el: HTMLElement | null): void {
  el?.focus();
}
