import { afterEach, describe, expect, it } from 'vitest';
import { createRoot } from 'react-dom/client';

type Root = ReturnType<typeof createRoot>;
import { Composer } from './Composer';

// The window's first key: the composer is focused in the commit that first
// shows it, not in a passive effect after the paint. At start-up the page is
// busy, and a key pressed between that paint and a passive effect landed on
// the page body and was lost (the desktop scripts typed "rite a note").
describe('Composer focus', () => {
  let root: Root | null = null;
  afterEach(() => {
    root?.unmount();
    root = null;
    document.body.innerHTML = '';
  });

  it('TestComposerFocusedInItsFirstCommit: the textarea holds focus before any passive effect runs', async () => {
    // A real (non-act) render: Preact commits, then runs passive effects
    // after the next frame. A MutationObserver's callback is a microtask
    // right after the commit's DOM writes and layout effects, before that.
    const host = document.createElement('div');
    document.body.appendChild(host);
    const seen = new Promise<Element | null>((resolve) => {
      const mo = new MutationObserver(() => {
        if (!host.querySelector('textarea')) return;
        mo.disconnect();
        resolve(document.activeElement);
      });
      mo.observe(host, { childList: true, subtree: true });
    });
    root = createRoot(host);
    root.render(
      <Composer
        status="idle"
        configured
        onOpenSettings={() => {}}
        onSend={async () => {}}
        onStop={async () => {}}
        queued={[]}
        onRemoveQueued={async () => {}}
        focusNonce={1}
      />,
    );
    const active = await seen;
    expect(active).toBe(host.querySelector('textarea'));
  });
});
