import { createEvent, fireEvent } from '@testing-library/preact';

/**
 * The person sets a field's value (the tests' `change(el, { target: { value } })`),
 * with the events a browser fires for it:
 * - a text field or textarea: `input`, where preact/compat listens for
 *   `onChange` (as React did, on every keystroke);
 * - a select, checkbox, radio or file input: `input` and then `change`,
 *   as on choosing; their `onChange` listens to `change`.
 * Not `fireEvent.change`: with compat loaded, @testing-library/preact sends
 * every one as `input`, which a select or file input never reacts to.
 * Each event is wrapped in `act`, like fireEvent.
 */
export function change(el: Element, init?: object): void {
  fireEvent(el, createEvent.input(el, init));
  if (firesChange(el)) fireEvent(el, createEvent.change(el, init));
}

function firesChange(el: Element): boolean {
  if (el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLInputElement && ['checkbox', 'radio', 'file'].includes(el.type);
}
