import { describe, expect, it } from 'vitest';
import { act, render, renderHook, screen } from '@testing-library/preact';
import { threadReducer } from '../state/threadReducer';
import { emptyThreadState, type ThreadAction, type ThreadState } from '../state/types';
import { plainText, useAnnouncements, type Announcement } from '../hooks/useAnnouncements';
import { bigThreadView, emptyView, thread } from '../test/builders';
import { fixtures } from '../test/fixtures';
import type { AguiEvent } from '../transport/agui';
import { Announcer } from './Announcer';

/** A thread driven action by action, with every announcement it made. */
function driven(threadId = 'th-1') {
  let state = threadReducer(emptyThreadState(threadId), { type: 'load', view: emptyView(thread(threadId)) });
  const said: Announcement[] = [];
  const hook = renderHook(({ s }: { s: ThreadState }) => useAnnouncements(s), { initialProps: { s: state } });
  const record = () => {
    const a = hook.result.current;
    if (a && said.at(-1)?.seq !== a.seq) said.push(a);
  };
  return {
    said,
    dispatch(action: ThreadAction) {
      state = threadReducer(state, action);
      act(() => hook.rerender({ s: state }));
      record();
    },
    events(events: AguiEvent[]) {
      this.dispatch({ type: 'events', events });
    },
    set(s: ThreadState) {
      state = s;
      act(() => hook.rerender({ s }));
      record();
    },
  };
}

const start: AguiEvent = { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r1' };
const finish: AguiEvent = { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r1', outcome: { type: 'success', pendingToolCallIds: [] } };

describe('useAnnouncements', () => {
  it('says a streamed answer once, when it is finished, not per token', () => {
    const t = driven();
    t.events([start, { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' }]);
    for (let i = 0; i < 100; i++) t.events([{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: i === 0 ? '**Hello** ' : `w${i} ` }]);
    expect(t.said).toEqual([]);
    t.events([{ type: 'TEXT_MESSAGE_END', messageId: 'a1' }]);
    t.events([finish]);
    expect(t.said).toHaveLength(1);
    expect(t.said[0]!.text).toMatch(/^Answer finished: Hello w1 w2 /);
    expect(t.said[0]!.text.length).toBeLessThan('Answer finished: '.length + 205);
    expect(t.said[0]!.urgent).toBe(false);
  });

  it('says nothing for a thread loaded from history, nor for switching to another', () => {
    const t = driven('th-1');
    t.dispatch({ type: 'load', view: bigThreadView('th-1', 40) });
    t.set(emptyThreadState('th-2'));
    t.set(threadReducer(emptyThreadState('th-2'), { type: 'load', view: bigThreadView('th-2', 12) }));
    // A thread opened while a card waits in it: the card is history too.
    const waiting = threadReducer(emptyThreadState('th-1'), { type: 'events', events: fixtures.interrupt });
    t.set({ ...emptyThreadState('th-3'), loaded: false });
    t.set({ ...waiting, threadId: 'th-3' });
    expect(t.said).toEqual([]);
  });

  it('says Stopped. when a run is stopped', () => {
    const t = driven();
    t.events(fixtures.stopped.slice(0, 3));
    t.events(fixtures.stopped.slice(3));
    expect(t.said.map((a) => a.text)).toEqual(['Stopped.']);
    // Stopped after RUN_STARTED, the rest in one batch.
    const once = driven();
    once.events(fixtures.stopped.slice(0, 1));
    once.events(fixtures.stopped.slice(1));
    expect(once.said.map((a) => a.text)).toEqual(['Stopped.']);
  });

  it('names the tool of an approval card that appears', () => {
    const t = driven();
    t.events(fixtures.interrupt);
    expect(t.said).toHaveLength(1);
    expect(t.said[0]!.text).toMatch(/Approval needed: write_file/);
  });

  it('says a run error assertively', () => {
    const t = driven();
    t.events(fixtures.runError);
    expect(t.said).toHaveLength(1);
    expect(t.said[0]).toMatchObject({ urgent: true });
    expect(t.said[0]!.text).toMatch(/^The answer failed: .*401/);
  });
});

describe('plainText', () => {
  it('drops markup and keeps the words', () => {
    expect(plainText('# Title\n\n- **bold** and [a link](https://x.org)\n\n```js\nconst x = 1;\n```')).toBe(
      'Title bold and a link js const x = 1;'.replace('js ', ''),
    );
    expect(plainText('word '.repeat(100)).length).toBeLessThanOrEqual(201);
  });
});

describe('Announcer', () => {
  it('renders one polite status region with the announcement', () => {
    let state = threadReducer(emptyThreadState('th-1'), { type: 'load', view: emptyView(thread('th-1')) });
    const { rerender } = render(<Announcer state={state} />);
    const region = screen.getByTestId('announcer');
    expect(region.getAttribute('role')).toBe('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.getAttribute('aria-atomic')).toBe('true');
    state = threadReducer(state, { type: 'events', events: fixtures.plain });
    rerender(<Announcer state={state} />);
    expect(region.textContent).toBe('');
  });
});
