import { useEffect } from 'react';
import type { Transport } from '../transport';
import { readBinding } from '../state/interrupts';

const PREFIX_RE = /^\(\d+\) Approval needed — /;

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/**
 * When an approval or a question arrives while the window is not focused:
 * prefix the document title with "(n) Approval needed — " and show a system
 * notification if the person granted permission (asked only from Settings).
 */
export function useAttention(transport: Transport): void {
  useEffect(() => {
    let count = 0;
    const setTitle = () => {
      const base = document.title.replace(PREFIX_RE, '') || 'Juncture';
      document.title = count > 0 ? `(${count}) Approval needed — ${base}` : base;
    };
    const off = transport.subscribe('agui', ({ event }) => {
      if (event.type !== 'RUN_FINISHED' || event.outcome.type !== 'interrupt') return;
      const items = event.outcome.interrupts.filter((i) => {
        const b = readBinding(i);
        return b !== null && b.kind !== 'client-tool-execution';
      });
      if (!items.length || document.hasFocus()) return;
      count += items.length;
      setTitle();
      const title = items.length > 1 ? `${items.length} decisions needed` : 'Juncture needs your decision';
      const body = items[0]!.message ?? 'A tool is waiting for your approval.';
      if (transport.kind === 'desktop') {
        // The webview has no usable Notification API: ask the app.
        transport.call('Notify', title, body).catch(() => undefined);
      } else if (notificationsSupported() && Notification.permission === 'granted') {
        try {
          const n = new Notification(title, { body, tag: 'juncture-attention' });
          n.onclick = () => {
            window.focus();
            n.close();
          };
        } catch {
          // Some webviews expose Notification but refuse to construct it.
        }
      }
    });
    const clear = () => {
      if (count === 0) return;
      count = 0;
      setTitle();
    };
    window.addEventListener('focus', clear);
    return () => {
      off();
      window.removeEventListener('focus', clear);
    };
  }, [transport]);
}
