// The derived view of a thread: messages with their tool blocks (results
// attached to the calls), run status, pending interrupts (classified),
// pending client tools and queued inputs. Memoised per state object, and
// per message so unchanged rows keep their identity (React.memo skips them).

import { classifyInterrupt, type ClassifiedInterrupt } from './interrupts';
import type { PendingClientTool, RunError, RunPhase, ThreadState, ToolCallView, UIMessage } from './types';

export interface MessageItem {
  key: string;
  message: UIMessage;
  tools: ToolCallView[];
  isLastUser: boolean;
  isLastAssistant: boolean;
  /** The last answer of its turn (the next message of the person, or the end, follows): Regenerate goes here. */
  isTurnEnd?: boolean;
  /** An MCP App view's tool call: an assistant message no model wrote (ids start with "view-"). */
  isViewCall?: boolean;
}

/** The runtime's prefix of a view's call id (agent.ViewCallPrefix); a model's call never keeps it. */
export const VIEW_CALL_PREFIX = 'view-';

/** A view's call: an assistant message with no text holding only calls a view asked for. */
export function isViewCallMessage(m: UIMessage): boolean {
  return (
    m.role === 'assistant' &&
    !m.content &&
    !m.reasoning &&
    m.toolCallIds.length > 0 &&
    m.toolCallIds.every((id) => id.startsWith(VIEW_CALL_PREFIX))
  );
}

export type RunStatus = 'idle' | 'running' | 'awaiting-decisions' | 'error';

export interface ThreadDerived {
  items: MessageItem[];
  status: RunStatus;
  phase: RunPhase;
  runError: RunError | null;
  interrupts: ClassifiedInterrupt[];
  /** Bound items that need an answer: they block new input until answered or stopped. */
  actionable: ClassifiedInterrupt[];
  unbound: ClassifiedInterrupt[];
  clientTools: PendingClientTool[];
  /** Items whose answer Go keeps while the rest of the batch waits. */
  answered: ReadonlySet<string>;
  /** Items that still need an answer before the run continues (interrupt ids, client tool call ids). */
  waiting: string[];
  queued: string[];
  streaming: boolean;
}

const itemCache = new WeakMap<UIMessage, MessageItem>();
const derivedCache = new WeakMap<ThreadState, ThreadDerived>();

function sameTools(a: ToolCallView[], b: ToolCallView[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function itemFor(
  m: UIMessage,
  tools: ToolCallView[],
  isLastUser: boolean,
  isLastAssistant: boolean,
  isTurnEnd: boolean,
  isViewCall: boolean,
): MessageItem {
  const cached = itemCache.get(m);
  if (
    cached &&
    !!cached.isViewCall === isViewCall &&
    cached.isLastUser === isLastUser &&
    cached.isLastAssistant === isLastAssistant &&
    cached.isTurnEnd === isTurnEnd &&
    sameTools(cached.tools, tools)
  ) {
    return cached;
  }
  const item: MessageItem = { key: m.id, message: m, tools, isLastUser, isLastAssistant, isTurnEnd };
  if (isViewCall) item.isViewCall = true;
  itemCache.set(m, item);
  return item;
}

const EMPTY_TOOLS: ToolCallView[] = [];

/** What the decision cards read, derived from the parts of the state it depends on. */
interface Decisions {
  interrupts: ClassifiedInterrupt[];
  actionable: ClassifiedInterrupt[];
  unbound: ClassifiedInterrupt[];
  answered: ReadonlySet<string>;
  waiting: string[];
}
interface DecisionsFrom {
  toolCalls: ThreadState['toolCalls'];
  answered: ThreadState['answered'];
  waiting: ThreadState['waiting'];
  clientTools: ThreadState['clientTools'];
  d: Decisions;
}
// Keyed by the state's interrupts: a streamed token makes a new state but
// leaves these parts as they were, and the cards (memoized on these arrays)
// then skip the frame.
const decisionsCache = new WeakMap<ThreadState['interrupts'], DecisionsFrom>();

function decisionsOf(s: ThreadState): Decisions {
  const hit = decisionsCache.get(s.interrupts);
  if (hit && hit.toolCalls === s.toolCalls && hit.answered === s.answered && hit.waiting === s.waiting && hit.clientTools === s.clientTools) return hit.d;
  const interrupts = s.interrupts.map((it) => classifyInterrupt(it, s.toolCalls));
  const actionable = interrupts.filter((c) => c.kind !== 'unbound');
  const unbound = interrupts.filter((c) => c.kind === 'unbound');
  const answered = new Set(s.answered);
  const waiting =
    s.waiting ??
    [...actionable.map((c) => c.interrupt.id), ...s.clientTools.map((c) => c.toolCallId)].filter((id) => !answered.has(id));
  const d = { interrupts, actionable, unbound, answered, waiting };
  decisionsCache.set(s.interrupts, { toolCalls: s.toolCalls, answered: s.answered, waiting: s.waiting, clientTools: s.clientTools, d });
  return d;
}

export function deriveThread(s: ThreadState): ThreadDerived {
  const hit = derivedCache.get(s);
  if (hit) return hit;
  // A view's call is no answer: it is neither the last answer nor a
  // turn's end (Regenerate stays on the model's answer before it).
  const viewCall = new Uint8Array(s.messages.length);
  for (let i = 0; i < s.messages.length; i++) if (isViewCallMessage(s.messages[i]!)) viewCall[i] = 1;
  let lastUser = -1;
  let lastAssistant = -1;
  for (let i = s.messages.length - 1; i >= 0 && (lastUser < 0 || lastAssistant < 0); i--) {
    const r = s.messages[i]!.role;
    if (r === 'user' && lastUser < 0) lastUser = i;
    if (r === 'assistant' && lastAssistant < 0 && !viewCall[i]) lastAssistant = i;
  }
  // The last answer of each turn: the last assistant message before the
  // next message of the person (or the end).
  const turnEnd = new Uint8Array(s.messages.length);
  for (let i = s.messages.length - 1, open = true; i >= 0; i--) {
    const r = s.messages[i]!.role;
    if (r === 'user') open = true;
    else if (r === 'assistant' && open && !viewCall[i]) {
      turnEnd[i] = 1;
      open = false;
    }
  }
  const items: MessageItem[] = new Array<MessageItem>(s.messages.length);
  let streaming = false;
  for (let i = 0; i < s.messages.length; i++) {
    const m = s.messages[i]!;
    if (m.status === 'streaming') streaming = true;
    let tools = EMPTY_TOOLS;
    if (m.toolCallIds.length) {
      tools = [];
      for (const id of m.toolCallIds) {
        const t = s.toolCalls[id];
        if (t) tools.push(t);
      }
    }
    items[i] = itemFor(m, tools, i === lastUser, i === lastAssistant, turnEnd[i] === 1, viewCall[i] === 1);
  }
  const { interrupts, actionable, unbound, answered, waiting } = decisionsOf(s);
  let status: RunStatus;
  if (s.phase === 'running') status = 'running';
  else if (actionable.length) status = 'awaiting-decisions';
  else if (s.phase === 'error') status = 'error';
  else status = 'idle';
  const d: ThreadDerived = {
    items,
    status,
    phase: s.phase,
    runError: s.runError,
    interrupts,
    actionable,
    unbound,
    clientTools: s.clientTools,
    answered,
    waiting,
    queued: s.queued,
    streaming,
  };
  derivedCache.set(s, d);
  return d;
}
