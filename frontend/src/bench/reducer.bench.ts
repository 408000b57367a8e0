import { bench, describe } from 'vitest';
import { threadReducer } from '../state/threadReducer';
import { coalesce } from '../state/batcher';
import { deriveThread } from '../state/derive';
import { emptyThreadState, type ThreadState } from '../state/types';
import type { AguiEvent } from '../transport/agui';
import { bigThreadView } from '../test/builders';

const DELTAS = 10_000;
const deltas: AguiEvent[] = Array.from({ length: DELTAS }, (_, i) => ({
  type: 'TEXT_MESSAGE_CONTENT',
  messageId: 'live',
  delta: `tok${i} `,
}));
const head: AguiEvent[] = [
  { type: 'RUN_STARTED', threadId: 'big', runId: 'r' },
  { type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' },
];

const empty = threadReducer(emptyThreadState('big'), { type: 'events', events: head });
const big: ThreadState = threadReducer(
  threadReducer(emptyThreadState('big'), { type: 'load', view: bigThreadView('big', 2000) }),
  { type: 'events', events: head },
);

describe('reducer throughput: 10,000 text deltas', () => {
  bench('one reducer action per delta (empty thread)', () => {
    let s = empty;
    for (const e of deltas) s = threadReducer(s, { type: 'events', events: [e] });
    deriveThread(s);
  });

  bench('one reducer action per delta (2,000-message thread)', () => {
    let s = big;
    for (const e of deltas) s = threadReducer(s, { type: 'events', events: [e] });
    deriveThread(s);
  });

  bench('per-frame batches of 100, coalesced (2,000-message thread)', () => {
    let s = big;
    for (let i = 0; i < DELTAS; i += 100) {
      s = threadReducer(s, { type: 'events', events: coalesce(deltas.slice(i, i + 100)) });
      deriveThread(s);
    }
  });
});

describe('loading a 2,000-message ThreadView', () => {
  const view = bigThreadView('big', 2000);
  bench('load + derive', () => {
    deriveThread(threadReducer(emptyThreadState('big'), { type: 'load', view }));
  });
});
