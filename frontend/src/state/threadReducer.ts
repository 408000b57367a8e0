// ONE reducer for a thread's AG-UI event stream (agui-1.0.md) plus the
// Juncture CUSTOM events and the ThreadView snapshot from GetThread.
//
// The parts live next to it: draft.ts (copy-on-write batches), textEvents.ts
// (text and reasoning), toolEvents.ts (tool calls), runEvents.ts (runs and
// CUSTOM events), messagesSnapshot.ts (MESSAGES_SNAPSHOT) and load.ts
// (GetThread and the events that arrived while it was in flight).

import { newMessage } from './draft';
import { loadView, mergeDetails } from './load';
import { reduceEvents } from './reduceEvents';
import { stopShown } from './runEvents';
import { emptyThreadState, type ThreadAction, type ThreadState } from './types';

export { reduceEvents } from './reduceEvents';
export { stateFromView } from './load';

export function threadReducer(state: ThreadState, action: ThreadAction): ThreadState {
  switch (action.type) {
    case 'reset': {
      const s = emptyThreadState(action.threadId, action.thread ?? null);
      // A thread created just now has nothing to load.
      if (action.thread) s.loaded = true;
      return s;
    }
    case 'load': {
      if (state.threadId !== null && state.threadId !== action.view.thread.id) return state;
      return loadView(state, action.view, action.pending ?? [], action.keepError ?? false);
    }
    case 'events':
      return reduceEvents(state, action.events);
    case 'queue':
      return { ...state, queued: action.queued };
    case 'localUser': {
      const m = newMessage(action.id, 'user', action.createdAt, null);
      m.content = action.text;
      m.status = 'complete';
      m.local = true;
      if (action.attachments?.length) m.attachments = action.attachments;
      return { ...state, messages: [...state.messages, m] };
    }
    case 'dropLocal':
      return { ...state, messages: state.messages.filter((m) => !(m.local && m.id === action.id)) };
    case 'answered': {
      // Only answers for items still pending here count (a late result of
      // a batch that has since continued changes nothing).
      const pending = new Set([...state.interrupts.map((i) => i.id), ...state.clientTools.map((c) => c.toolCallId)]);
      const ids = action.ids.filter((id) => pending.has(id));
      if (!ids.length || action.result.continued) return state;
      return { ...state, answered: [...new Set([...state.answered, ...ids])], waiting: action.result.waiting };
    }
    case 'resynced':
      return state.needsResync || state.needsRefresh ? { ...state, needsResync: false, needsRefresh: false } : state;
    case 'detailsAsked':
      return state.needsDetails ? { ...state, needsDetails: false } : state;
    case 'details':
      return state.threadId === action.view.thread.id ? mergeDetails(state, action.view) : state;
    case 'reloaded':
      return state.needsReload ? { ...state, needsReload: false } : state;
    case 'setThread':
      return state.threadId === action.thread.id ? { ...state, thread: action.thread } : state;
    case 'stopping':
      return stopShown(state);
    case 'stopFailed':
      // Shown stopped, and no RUN_FINISHED came: what runs is the store's to
      // say. Only of the chat whose Stop failed: the person may have opened
      // another while the Interrupt call was out.
      return state.threadId === action.threadId && state.phase === 'idle' && state.runId !== null && !state.needsResync ? { ...state, needsResync: true } : state;
  }
}
