import { bench, describe } from 'vitest';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { ThreadView } from '../features/chat/ThreadView';
import { threadReducer } from '../state/threadReducer';
import { deriveThread } from '../state/derive';
import { emptyThreadState, type ThreadState } from '../state/types';
import { bigThreadView } from '../test/builders';
import { preloadMarkdown } from '../features/chat/MessageBody';
import type { Message, ThreadView as View } from '../transport/contract';

// Commits an update synchronously, as the window does in a frame: flushSync
// renders and commits (passive effects, which run after the frame is
// painted, are left out). Preact has one build, the one the window runs.
const act = (f: () => void): void => {
  flushSync(f);
};

const view = bigThreadView('big', 2000);
const noop = () => undefined;

describe('rendering a 2,000-message thread (jsdom)', () => {
  bench(
    'GetThread result → reducer → first render of the windowed list',
    () => {
      const host = document.createElement('div');
      host.style.height = '800px';
      document.body.appendChild(host);
      const root = createRoot(host);
      const state = threadReducer(emptyThreadState('big'), { type: 'load', view });
      act(() => {
        root.render(
          <ThreadView
            threadId="big"
            view={deriveThread(state)}
            highlight={null}
            onContinue={noop}
            onRegenerate={noop}
           
          />,
        );
      });
      if (!host.querySelector('.vlist-row')) throw new Error('nothing rendered');
      act(() => root.unmount());
      host.remove();
    },
    { time: 3000 },
  );
});

// Switching versions in a 2,000-message thread: a question has two
// versions; the path through the other one is loaded as a new view (what
// the reload after juncture.path_changed does) and the list renders it.
// Rows before the branch point keep their objects and are not rendered
// again; the rows from there on are new (Markdown rendered). Measured
// against one frame (16.7 ms at 60 Hz), Markdown loaded as in the window:
//   - the last question (an edit or a regenerate of the latest turn, the
//     usual case): the last two rows are new;
//   - the question at message 1,000 with the list at the bottom: every row
//     on screen is new (the worst case).
const FRAME_MS = 1000 / 60;

function branchViews(at: number): [View, View] {
  const a = bigThreadView('big', 2000);
  const b = bigThreadView('big', 2000);
  b.messages = b.messages.map((m, i) =>
    i < at ? m : { ...m, id: `${m.id}-v2`, content: i === at ? `${m.content} (edited)` : m.content },
  );
  const siblings = [a.messages[at]!.id, b.messages[at]!.id];
  const withBranch = (v: View, index: number) => {
    v.messages[at] = { ...v.messages[at]!, branch: { index, count: 2, siblings } } as Message;
    for (let i = at + 1; i < v.messages.length; i++) v.messages[i] = { ...v.messages[i]!, parentId: v.messages[i - 1]!.id } as Message;
  };
  withBranch(a, 1);
  withBranch(b, 2);
  // GetThread says which event the view reflects (the exact load, as in the window).
  a.eventSeq = 100;
  b.eventSeq = 101;
  return [a, b];
}

function switchBench(name: string, at: number) {
  const [viewA, viewB] = branchViews(at);
  const samples: number[] = [];
  let host: HTMLDivElement;
  let root: ReturnType<typeof createRoot> | undefined;
  let state: ThreadState;
  let onB = false;
  const show = () =>
    root!.render(
      <ThreadView threadId="big" view={deriveThread(state)} highlight={null} onContinue={noop} onRegenerate={noop} />,
    );

  // (Bench files run no beforeAll/afterAll: tinybench's setup and teardown hooks do it.)
  const setup = async () => {
    if (root) return;
    await preloadMarkdown(); // answers render as Markdown, as in the window
    host = document.createElement('div');
    host.style.height = '800px';
    document.body.appendChild(host);
    root = createRoot(host);
    state = threadReducer(emptyThreadState('big'), { type: 'load', view: viewA });
    act(show);
  };

  const report = (_task: unknown, mode?: 'warmup' | 'run') => {
    if (mode !== 'run' || !samples.length) {
      samples.length = 0; // warm-up switches are not counted
      return;
    }
    act(() => root?.unmount());
    root = undefined;
    host.remove();
    const sorted = [...samples].sort((x, y) => x - y);
    const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
    const mean = samples.reduce((x, y) => x + y, 0) / samples.length;
    const verdict = (ms: number) => (ms <= FRAME_MS ? 'within' : 'over');
    console.log(
      `${name} [Preact]: ${samples.length} switches, median ${q(0.5).toFixed(2)} ms (${verdict(q(0.5))} the ${FRAME_MS.toFixed(1)} ms frame), ` +
        `mean ${mean.toFixed(2)} ms, p95 ${q(0.95).toFixed(2)} ms (${verdict(q(0.95))})`,
    );
  };

  bench(
    name,
    () => {
      if (!root) throw new Error('setup did not run');
      onB = !onB;
      const want = onB ? viewB : viewA;
      const t0 = performance.now();
      state = threadReducer(state, { type: 'load', view: want });
      act(show);
      samples.push(performance.now() - t0);
      if (!host.querySelector(`[data-message-id="${want.messages[want.messages.length - 1]!.id}"]`)) {
        throw new Error('the other version was not rendered');
      }
    },
    { time: 3000, setup, teardown: report },
  );
}

describe('switching versions in a 2,000-message thread (jsdom): the new path’s view → reducer → re-render', () => {
  switchBench('branch switch at the last question', 1998);
  switchBench('branch switch at message 1,000 (every row on screen new)', 1000);
});
