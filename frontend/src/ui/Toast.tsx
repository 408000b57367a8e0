import { memo, useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import './Toast.css';

export interface ToastData {
  id: number;
  text: string;
  action?: { label: string; run: () => void };
  tone?: 'info' | 'error';
  /** How long it stays, in ms, not counting time under the pointer or the keyboard focus. */
  duration?: number;
  /**
   * Called once when the toast goes away, for whatever reason (its time ran
   * out, Dismiss, its action, a newer toast pushed it out): e.g. a delete
   * is carried out unless its Undo ran first.
   */
  onClose?: () => void;
}

export const DEFAULT_TOAST_MS = 6000;

function ToastItem({ t, onDismiss }: { t: ToastData; onDismiss: (id: number) => void }) {
  const [hover, setHover] = useState(false);
  const [focus, setFocus] = useState(false);
  const left = useRef(t.duration ?? DEFAULT_TOAST_MS);
  const paused = hover || focus;
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => onDismiss(t.id), Math.max(0, left.current));
    return () => {
      clearTimeout(timer);
      left.current -= Date.now() - started;
    };
  }, [paused, t.id, onDismiss]);
  return (
    <div
      className={`toast ${t.tone ?? 'info'}`}
      role={t.tone === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      onFocus={() => setFocus(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocus(false);
      }}
    >
      <span className="toast-text">{t.text}</span>
      {t.action && (
        <button
          type="button"
          className="toast-action"
          onClick={() => {
            t.action?.run();
            onDismiss(t.id);
          }}
        >
          {t.action.label}
        </button>
      )}
      <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => onDismiss(t.id)}>
        ×
      </button>
    </div>
  );
}

/**
 * Where the toasts go so they cover nothing: at the foot of the sidebar, just
 * above its bottom bar and as wide as it, when the sidebar shows; else under
 * the chat's header. Toast.css makes room for them there (the conversation
 * list ends above them, or the chat's messages start below them).
 */
export function toastSlot(doc: Document = document): { where: 'sidebar' | 'chat'; style: CSSProperties } | null {
  const vw = doc.defaultView;
  const side = doc.querySelector('.sidebar');
  const bar = doc.querySelector('.sidebar-bottom');
  if (side && bar && vw?.getComputedStyle(side).display !== 'none') {
    const s = side.getBoundingClientRect();
    const b = bar.getBoundingClientRect();
    if (s.width >= 160 && s.left >= -1 && s.right <= vw!.innerWidth + 1 && b.height > 0) {
      return { where: 'sidebar', style: { left: s.left + 8, width: s.width - 16, bottom: Math.max(8, vw!.innerHeight - b.top + 8) } };
    }
  }
  const head = doc.querySelector('.chat-head');
  const main = doc.querySelector('main.chat') ?? doc.querySelector('main');
  if (head && main) {
    const h = head.getBoundingClientRect();
    const m = main.getBoundingClientRect();
    return { where: 'chat', style: { top: h.bottom + 8, left: m.left + m.width / 2, width: Math.min(560, m.width - 24) } };
  }
  return null;
}

/**
 * Transient notices (e.g. "Deleted … Undo") where they cover nothing (see
 * toastSlot). Each stays its `duration`, paused while the pointer is on it
 * or it has the focus.
 */
// Memoized: App renders once per frame while an answer streams.
export const Toasts = memo(function Toasts({ toasts, onDismiss }: { toasts: readonly ToastData[]; onDismiss: (id: number) => void }) {
  const region = useRef<HTMLDivElement>(null);
  const [slot, setSlot] = useState<ReturnType<typeof toastSlot>>(null);
  const any = toasts.length > 0;
  // Follow the layout while toasts show (window resized, sidebar shown or
  // hidden), and tell the slot how much room they take (--toasts-h).
  useLayoutEffect(() => {
    const root = document.documentElement;
    if (!any) {
      root.style.removeProperty('--toasts-h');
      return;
    }
    let last = '';
    const place = () => {
      const next = toastSlot();
      const key = JSON.stringify(next);
      if (key !== last) {
        last = key;
        setSlot(next);
      }
      const h = region.current?.getBoundingClientRect().height ?? 0;
      root.style.setProperty('--toasts-h', `${Math.ceil(h) + 16}px`);
    };
    place();
    window.addEventListener('resize', place);
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    if (region.current) ro?.observe(region.current);
    const poll = setInterval(place, 300); // the sidebar shown or hidden
    return () => {
      window.removeEventListener('resize', place);
      ro?.disconnect();
      clearInterval(poll);
    };
  }, [any]);
  // onClose for every toast that left the list (once each).
  const shown = useRef(new Map<number, ToastData>());
  useEffect(() => {
    const now = new Set(toasts.map((t) => t.id));
    for (const [id, t] of shown.current) {
      if (!now.has(id)) {
        shown.current.delete(id);
        t.onClose?.();
      }
    }
    for (const t of toasts) shown.current.set(t.id, t);
  }, [toasts]);
  return (
    <div
      ref={region}
      className={`toasts${slot ? ` in-${slot.where}` : ''}`}
      style={slot?.style}
      role="region"
      aria-label="Notifications"
      aria-live="polite"
    >
      {toasts.map((t) => (
        <ToastItem key={t.id} t={t} onDismiss={onDismiss} />
      ))}
    </div>
  );
});
