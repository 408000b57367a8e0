import { afterEach, expect, test } from 'vitest';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { options } from 'preact';
import { App } from './App';
import { TransportContext } from './transport';
import { oneChatTransport } from './test/streamingWindow';
import { preloadMarkdown } from './features/chat/MessageBody';
import type { AguiEvent } from './transport/agui';

// While an answer streams, a frame renders the conversation's last message
// and what shows the run, nothing else: the window's parts that do not
// change with the text (the sidebar and its toggle, the header's model and
// usage, the cards, the composer, the update prompt, the toasts, the
// shortcuts sheet) skip the frame. Counted by Preact's render hook, by
// component name (the window bench, src/bench/window.bench.tsx, prints the
// same counts with BENCH_RENDERS=1).

const SKIP = ['Sidebar', 'SidebarToggle', 'UpdatePrompt', 'ShortcutsSheet', 'Toasts', 'ThreadHeader', 'ThreadUsage', 'InterruptPanel', 'AlertLine', 'Composer'];

type Hooks = { __r?: (v: { type?: unknown }) => void };
const hooks = options as unknown as Hooks;
let root: ReturnType<typeof createRoot> | null = null;
let host: HTMLElement | null = null;
const prevRender = hooks.__r;
const origRaf = globalThis.requestAnimationFrame;

afterEach(() => {
  hooks.__r = prevRender;
  globalThis.requestAnimationFrame = origRaf;
  if (root) flushSync(() => root!.unmount());
  host?.remove();
  root = null;
});

function nameOf(type: unknown): string {
  const t = type as { displayName?: string; name?: string };
  return (t.displayName || t.name || '').replace(/^(Memo|ForwardRef)\((.*)\)$/, '$2').replace(/^(Memo|ForwardRef)\((.*)\)$/, '$2').replace(/\d+$/, '');
}

test('a streamed frame renders only what changes with the text', async () => {
  let queued: FrameRequestCallback[] = [];
  globalThis.requestAnimationFrame = (cb) => {
    queued.push(cb);
    return queued.length;
  };
  const runFrame = () => {
    const q = queued;
    queued = [];
    for (const cb of q) cb(performance.now());
  };
  await preloadMarkdown();
  const t = oneChatTransport('Streaming');
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  flushSync(() =>
    root!.render(
      <TransportContext.Provider value={t}>
        <App />
      </TransportContext.Provider>,
    ),
  );
  const listed = () => [...host!.querySelectorAll('button')].find((b) => b.textContent?.includes('Streaming'));
  await expect.poll(listed).toBeTruthy();
  flushSync(() => listed()!.click());
  await expect.poll(() => host!.querySelector('textarea')).toBeTruthy();
  const emit = (event: AguiEvent) => t.emit('agui', { threadId: 'th-1', event, seq: 0 });
  emit({ type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' });
  emit({ type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' });
  emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Hello' });
  runFrame();
  await new Promise((r) => setTimeout(r, 20));
  runFrame();
  await expect.poll(() => host!.querySelector('article[aria-label="Juncture said"]')?.textContent).toContain('Hello');

  const rendered = new Map<string, number>();
  hooks.__r = (v) => {
    if (typeof v.type === 'function') rendered.set(nameOf(v.type), (rendered.get(nameOf(v.type)) ?? 0) + 1);
    prevRender?.(v);
  };
  for (let i = 0; i < 5; i++) {
    emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: ` word${i}` });
    runFrame();
  }
  hooks.__r = prevRender;
  expect(host.querySelector('article[aria-label="Juncture said"]')?.textContent).toContain('word4');
  // The frames did render the answer…
  expect(rendered.get('Markdown')).toBeGreaterThanOrEqual(5);
  // …and none of the parts that do not change with it.
  expect(Object.fromEntries(SKIP.map((n) => [n, rendered.get(n) ?? 0]))).toEqual(Object.fromEntries(SKIP.map((n) => [n, 0])));
});
