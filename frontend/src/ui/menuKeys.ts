import type { KeyboardEvent } from 'react';

/**
 * The keys of an open role="menu" (the WAI-ARIA menu pattern), for its
 * onKeyDown: ↓ and ↑ move among its menuitems (wrapping), Home and End go
 * to the first and last, Escape closes it (`escape`), Tab closes it and
 * lets the focus move on (`tab`).
 */
export function menuKeyDown(
  e: KeyboardEvent<HTMLElement>,
  { escape, tab, keepEscape = false }: { escape: () => void; tab: () => void; keepEscape?: boolean },
): void {
  const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  const i = items.indexOf(document.activeElement as HTMLElement);
  const focus = (j: number) => {
    e.preventDefault();
    items[j]?.focus();
  };
  switch (e.key) {
    case 'Escape':
      e.preventDefault();
      // The menu's own Escape: a dialog or drawer around it stays open.
      if (keepEscape) e.stopPropagation();
      escape();
      break;
    case 'ArrowDown':
      focus((i + 1) % items.length);
      break;
    case 'ArrowUp':
      focus((i - 1 + items.length) % items.length);
      break;
    case 'Home':
      focus(0);
      break;
    case 'End':
      focus(items.length - 1);
      break;
    case 'Tab':
      tab();
      break;
  }
}
