import type { Message, Thread, ThreadView } from '../transport/contract';

export function thread(id: string, title = `Thread ${id}`, updatedAt = Date.now()): Thread {
  return { id, title, pinned: false, createdAt: updatedAt - 1000, updatedAt };
}

const LOREM =
  'Here is a paragraph with **bold** text, a [link](https://example.org) and `inline code`. It goes on for a while so that rows have different heights.';

/** A long conversation: alternating user / assistant messages with Markdown, code and tool calls. */
export function bigThreadView(id: string, n: number): ThreadView {
  const messages: Message[] = [];
  for (let i = 0; i < n; i++) {
    const user = i % 2 === 0;
    const m: Message = {
      id: `${id}-m${i}`,
      threadId: id,
      role: user ? 'user' : 'assistant',
      content: user
        ? `Question number ${i}: can you help with item ${i}?`
        : `${LOREM}\n\n${'- point\n'.repeat(1 + (i % 4))}\n${i % 10 === 1 ? '```js\nconst x = ' + i + ';\n```\n' : ''}`,
      status: 'complete',
      createdAt: 1_700_000_000_000 + i * 1000,
    };
    if (!user && i % 20 === 3) {
      m.toolCalls = [{ id: `${id}-tc${i}`, name: 'read_file', arguments: `{"path":"file${i}.txt"}` }];
    }
    messages.push(m);
  }
  return {
    thread: thread(id, 'Big thread'),
    messages,
    running: false,
    queued: [],
    interrupts: [],
    interruptKinds: {},
    clientTools: [],
    toolStates: {},
    answered: [],
  };
}

export function emptyView(t: Thread): ThreadView {
  return {
    thread: t,
    messages: [],
    running: false,
    queued: [],
    interrupts: [],
    interruptKinds: {},
    clientTools: [],
    toolStates: {},
    answered: [],
  };
}
