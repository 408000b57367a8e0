import { bench, describe } from 'vitest';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { options } from 'preact';
import { App } from '../App';
import { TransportContext } from '../transport';
import { oneChatTransport } from '../test/streamingWindow';
import { preloadMarkdown } from '../features/chat/MessageBody';
import type { AguiEvent } from '../transport/agui';
// The desktop bench's Markdown stream (bench/mdfake.mjs: headings, lists,
// fenced Go and TypeScript, a table).
import { tokenText } from '../../../bench/mdfake.mjs';

// The whole window (App, its sidebar, the open chat, the composer) streaming
// an answer in jsdom: 2,000 tokens of Markdown with code blocks arriving at
// 1,000 tokens/s, so 16 per animation frame: the tokens go to the page's
// event handlers one by one, then the frame runs (the event batcher's
// animation frame callback, Preact's commit). The floor, in the same run:
// the same tokens appended to one element's text node, one by one, in the
// same document (what bench/floorstream's page does in the desktop bench).
// Printed: µs per token of each, and the ratio. jsdom does no layout or
// paint: this is the script's share of the window's cost (the desktop
// bench, scripts/bench-desktop.sh, measures the whole WebKit process).

const TOKENS = 2000;
const PER_FRAME = 16;

// Animation frames run when the bench says (a frame = the callbacks queued so far).
let queued: FrameRequestCallback[] = [];
function runFrame(t: number) {
  const q = queued;
  queued = [];
  for (const cb of q) cb(t);
}

const perToken: Record<'window' | 'floor', number[]> = { window: [], floor: [] };
const commits: number[] = [];
const renders: number[] = [];
// Component renders per frame, by name (printed with BENCH_RENDERS=1):
// what renders again with a streaming answer, and should not.
const byName = new Map<string, number>();

async function streamWindow() {
  const origRaf = globalThis.requestAnimationFrame;
  const origCancel = globalThis.cancelAnimationFrame;
  globalThis.requestAnimationFrame = (cb) => {
    queued.push(cb);
    return queued.length;
  };
  globalThis.cancelAnimationFrame = () => {};
  await preloadMarkdown();
  const t = oneChatTransport('Bench');
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  // Preact's commit hook (options._commit, "__c" once mangled; the one its
  // devtools use) counts the page's commits, as React's Profiler did.
  let n = 0;
  let r = 0;
  let counting = false;
  const hooks = options as unknown as { __c?: (...a: unknown[]) => void; __r?: (v: { type?: unknown }) => void };
  const prevCommit = hooks.__c;
  hooks.__c = (...a: unknown[]) => {
    n++;
    prevCommit?.(...a);
  };
  // Preact's render hook (options._render, "__r"): once per component render.
  const prevRender = hooks.__r;
  hooks.__r = (v) => {
    r++;
    if (counting && typeof v.type === 'function') {
      const name = (v.type as { displayName?: string; name?: string }).displayName || (v.type as { name?: string }).name || '?';
      byName.set(name, (byName.get(name) ?? 0) + 1);
    }
    prevRender?.(v);
  };
  flushSync(() =>
    root.render(
      <TransportContext.Provider value={t}>
        <App />
      </TransportContext.Provider>,
    ),
  );
  // open the thread
  const listed = () => [...host.querySelectorAll('button')].find((b) => b.textContent?.includes('Bench'));
  for (let i = 0; i < 300 && !listed(); i++) await new Promise((r) => setTimeout(r, 10));
  const item = listed();
  if (!item) throw new Error('the thread is not listed');
  flushSync(() => item.click());
  for (let i = 0; i < 100 && !host.querySelector('textarea'); i++) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
  const emit = (event: AguiEvent) => t.emit('agui', { threadId: 'th-1', event, seq: 0 });
  emit({ type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' });
  emit({ type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' });
  runFrame(0);
  await new Promise((r) => setTimeout(r, 20));
  n = 0;
  r = 0;
  counting = true;
  const t0 = performance.now();
  for (let i = 0; i < TOKENS; i++) {
    emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: tokenText(i) });
    if ((i + 1) % PER_FRAME === 0 || i === TOKENS - 1) runFrame(performance.now());
  }
  perToken.window.push(((performance.now() - t0) * 1000) / TOKENS);
  counting = false;
  commits.push(n / Math.ceil(TOKENS / PER_FRAME));
  renders.push(r / Math.ceil(TOKENS / PER_FRAME));
  if (!host.querySelector('article[aria-label="Juncture said"] pre')) throw new Error('no code block rendered');
  emit({ type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'success', pendingToolCallIds: [] } });
  runFrame(0);
  root.unmount();
  hooks.__c = prevCommit;
  hooks.__r = prevRender;
  host.remove();
  globalThis.requestAnimationFrame = origRaf;
  globalThis.cancelAnimationFrame = origCancel;
}

function streamFloor() {
  const el = document.createElement('div');
  document.body.appendChild(el);
  const text = document.createTextNode('');
  el.appendChild(text);
  const t0 = performance.now();
  for (let i = 0; i < TOKENS; i++) text.appendData(tokenText(i));
  perToken.floor.push(((performance.now() - t0) * 1000) / TOKENS);
  el.remove();
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

describe(`the window streaming ${TOKENS} tokens of Markdown, ${PER_FRAME} per frame (jsdom)`, () => {
  bench('floor: append each token to one text node', streamFloor, { time: 500, iterations: 5 });
  bench('window: App streaming the answer', streamWindow, {
    time: 4000,
    iterations: 2,
    teardown: (_t, mode) => {
      if (mode !== 'run') return;
      const w = med(perToken.window);
      const f = med(perToken.floor);
      console.log(
        `window streaming [Preact]: µs per token window ${w.toFixed(1)}, floor ${f.toFixed(2)}; window/floor ${(w / f).toFixed(0)}×; ` +
          `commits per frame ${med(commits).toFixed(2)} (goal ≤ 1); component renders per frame ${med(renders).toFixed(1)}`,
      );
      if (process.env.BENCH_RENDERS) {
        const frames = Math.ceil(TOKENS / PER_FRAME) * perToken.window.length;
        const rows = [...byName].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / frames).toFixed(2)}`);
        console.log(`renders per frame by component: ${rows.join(', ')}`);
      }
    },
  });
});
