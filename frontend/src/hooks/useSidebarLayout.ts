import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/**
 * How the conversation sidebar is shown:
 *   docked:  beside the chat (wide windows, not collapsed);
 *   hidden:  collapsed (the toggle button or Ctrl/Cmd+B brings it back);
 *   overlay: narrow windows (≤ 800 px): over the chat, with a scrim; Esc,
 *            a click on the scrim or choosing a chat closes it.
 * Wide windows remember collapsed / open (localStorage); narrow windows
 * always start with it closed.
 */
export type SidebarMode = 'docked' | 'hidden' | 'overlay';

export const NARROW_QUERY = '(max-width: 800px)';
export const SIDEBAR_KEY = 'juncture.sidebar';

function narrowNow(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;
}

export function rememberedCollapsed(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_KEY) === 'collapsed';
  } catch {
    return false;
  }
}

function rememberCollapsed(collapsed: boolean): void {
  try {
    if (collapsed) window.localStorage.setItem(SIDEBAR_KEY, 'collapsed');
    else window.localStorage.removeItem(SIDEBAR_KEY);
  } catch {
    // storage disabled: the next window starts open
  }
}

export interface SidebarLayout {
  mode: SidebarMode;
  narrow: boolean;
  /** The sidebar can be seen (docked or overlay). */
  shown: boolean;
  /** Shows or hides it; `keyboard` moves focus into an overlay that opens. */
  toggle: (keyboard?: boolean) => void;
  /** Closes the overlay (no-op when docked); `restore` puts focus back where it was. */
  closeOverlay: (restore?: boolean) => void;
}

export interface SidebarLayoutRefs {
  /** The toggle button (focus lands there when what was focused disappears). */
  toggleRef: RefObject<HTMLButtonElement | null>;
  /** The sidebar: focusList() focuses the open chat's row; contains(node). */
  sidebarRef: RefObject<{ focusList: () => void; contains: (node: Node) => boolean } | null>;
}

export function useSidebarLayout({ toggleRef, sidebarRef }: SidebarLayoutRefs): SidebarLayout {
  const [narrow, setNarrow] = useState(narrowNow);
  const [collapsed, setCollapsed] = useState(rememberedCollapsed);
  const [overlayOpen, setOverlayOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia(NARROW_QUERY);
    const onChange = () => {
      setNarrow(mq.matches);
      setOverlayOpen(false);
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  const shown = narrow ? overlayOpen : !collapsed;
  const mode: SidebarMode = narrow ? (overlayOpen ? 'overlay' : 'hidden') : collapsed ? 'hidden' : 'docked';

  // Focus inside a sidebar that is being hidden goes to the toggle button.
  const rescueFocus = useCallback(() => {
    const a = document.activeElement;
    if (a instanceof HTMLElement && sidebarRef.current?.contains(a)) toggleRef.current?.focus();
  }, [sidebarRef, toggleRef]);

  const closeOverlay = useCallback(
    (restore = false) => {
      if (!overlayOpen) return;
      setOverlayOpen(false);
      const back = returnTo.current;
      returnTo.current = null;
      if (!restore) return;
      if (back?.isConnected && !sidebarRef.current?.contains(back)) back.focus();
      else toggleRef.current?.focus();
    },
    [overlayOpen, sidebarRef, toggleRef],
  );

  const toggle = useCallback(
    (keyboard = false) => {
      if (narrow) {
        if (overlayOpen) {
          closeOverlay(true);
          return;
        }
        const a = document.activeElement;
        returnTo.current = a instanceof HTMLElement && a !== document.body ? a : null;
        setOverlayOpen(true);
        // The chat behind becomes inert: focus goes into the sidebar.
        if (keyboard) requestAnimationFrame(() => sidebarRef.current?.focusList());
        return;
      }
      const next = !collapsed;
      if (next) rescueFocus();
      setCollapsed(next);
      rememberCollapsed(next);
    },
    [narrow, overlayOpen, collapsed, closeOverlay, rescueFocus, sidebarRef],
  );

  // Ctrl/Cmd+B toggles; Esc closes the overlay unless something inside
  // already used it (a menu, the search box: they preventDefault). This
  // listens on document, so it runs before the window's Esc-stops-the-run.
  const toggleRef2 = useRef(toggle);
  toggleRef2.current = toggle;
  const closeRef = useRef(closeOverlay);
  closeRef.current = closeOverlay;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const inDialog = e.target instanceof Element && e.target.closest('dialog') !== null;
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'b' && !inDialog) {
        e.preventDefault();
        toggleRef2.current(true);
      } else if (e.key === 'Escape' && overlayOpen && !inDialog) {
        e.preventDefault();
        closeRef.current(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [overlayOpen]);

  return { mode, narrow, shown, toggle, closeOverlay };
}
