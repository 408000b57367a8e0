import { useEffect, type RefObject } from 'react';

/**
 * Shows the <dialog> in ref as a modal while open is true and closes it when
 * open turns false (by its attribute where the browser, or jsdom, has no
 * showModal/close). onClosed runs after a close this hook made.
 */
export function useModalDialog(
  ref: RefObject<HTMLDialogElement | null>,
  open: boolean,
  onClosed?: () => void,
): void {
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
    } else if (!open && d.open) {
      if (typeof d.close === 'function') d.close();
      else d.removeAttribute('open');
      onClosed?.();
    }
  }, [ref, open, onClosed]);
}
