// Events pushed by Juncture (contract "Events"), narrowed from unknown JSON,
// plus `connection`, which the transport itself emits when the event stream
// drops or comes back (so the UI can refetch what it may have missed).

import { isObject, isString, isStringArray, optStr } from './json';
import { parseAguiEvent, type AguiEvent } from './agui';
import { parseStatus, type Refine, type Status } from './contract';
import type { AGUIEvent, PathChangedEvent, QueueEvent, ThreadsEvent } from './contract.gen';

/** `mcp`: a server's status or tools changed, or the configuration was saved: reload what is shown. */
export type McpChangedEvent = Record<string, never>;

export interface EventMap {
  agui: Refine<AGUIEvent, { event: AguiEvent }>;
  threads: ThreadsEvent;
  queue: QueueEvent;
  mcp: McpChangedEvent;
  /** A thread's active path changed outside a run (a branch switch, new instructions): reload it. */
  path: PathChangedEvent;
  /** The app's status changed (an endpoint was detected, writes found the disk full or work again). */
  status: Status;
  connection: { state: 'connected' | 'disconnected' | 'reconnected' };
}

export type EventName = keyof EventMap;

export const SERVER_EVENTS = ['agui', 'threads', 'queue', 'mcp', 'path', 'status'] as const;
export type ServerEventName = (typeof SERVER_EVENTS)[number];

export function isServerEventName(s: string): s is ServerEventName {
  return (SERVER_EVENTS as readonly string[]).includes(s);
}

/** Narrows the payload of a server event; `null` drops a malformed one. */
export function parseEventData<N extends ServerEventName>(name: N, data: unknown): EventMap[N] | null {
  switch (name) {
    case 'agui': {
      if (!isObject(data) || !isString(data.threadId)) return null;
      const parsed = parseAguiEvent(data.event);
      if (!parsed) return null;
      const seq = typeof data.seq === 'number' ? data.seq : 0;
      const event = typeof data.offset === 'number' ? withOffset(parsed, data.offset) : parsed;
      const v: EventMap['agui'] = { threadId: data.threadId, event, seq };
      return v as EventMap[N];
    }
    case 'threads': {
      const threadId = isObject(data) ? optStr(data, 'threadId') : undefined;
      const v: EventMap['threads'] = threadId ? { threadId } : {};
      return v as EventMap[N];
    }
    case 'queue': {
      if (!isObject(data) || !isString(data.threadId)) return null;
      const v: EventMap['queue'] = { threadId: data.threadId, queued: isStringArray(data.queued) ? data.queued : [] };
      return v as EventMap[N];
    }
    case 'path': {
      if (!isObject(data) || !isString(data.threadId)) return null;
      const v: EventMap['path'] = { threadId: data.threadId, leafId: optStr(data, 'leafId') ?? '', reason: optStr(data, 'reason') ?? '' };
      return v as EventMap[N];
    }
    case 'status': {
      try {
        return parseStatus(data) as EventMap[N];
      } catch {
        return null;
      }
    }
    case 'mcp': {
      // No payload worth reading: the window reloads what it shows.
      const v: EventMap['mcp'] = {};
      return v as EventMap[N];
    }
    default:
      return null;
  }
}

/** A delta event with the offset its envelope gave (other events as they are). */
function withOffset(e: AguiEvent, offset: number): AguiEvent {
  switch (e.type) {
    case 'TEXT_MESSAGE_CONTENT':
    case 'REASONING_MESSAGE_CONTENT':
    case 'TOOL_CALL_ARGS':
      return { ...e, offset };
    default:
      return e;
  }
}

export type Handler<N extends EventName> = (data: EventMap[N]) => void;

/** One set of handlers per event name; transports feed it. */
export class EventHub {
  private handlers = new Map<EventName, Set<(data: never) => void>>();

  on<N extends EventName>(name: N, handler: Handler<N>): () => void {
    let set = this.handlers.get(name);
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
    }
    const h = handler as (data: never) => void;
    set.add(h);
    return () => {
      set.delete(h);
    };
  }

  count(name: EventName): number {
    return this.handlers.get(name)?.size ?? 0;
  }

  emit<N extends EventName>(name: N, data: EventMap[N]): void {
    const set = this.handlers.get(name);
    if (!set) return;
    for (const h of [...set]) {
      try {
        (h as Handler<N>)(data);
      } catch (e) {
        console.error(`[juncture] handler for ${name} failed`, e);
      }
    }
  }
}
