// Applies AG-UI events to a thread state, one batch per draft.

import type { AguiEvent } from '../transport/agui';
import { Draft } from './draft';
import { applyMessagesSnapshot } from './messagesSnapshot';
import { applyCustom, applyRunEvent, reopenIfCallRuns } from './runEvents';
import { applyTextEvent } from './textEvents';
import { applyToolEvent } from './toolEvents';
import type { ThreadState } from './types';

/** Applies one AG-UI event to the draft. */
function applyEvent(d: Draft, e: AguiEvent): void {
  const ts = d.now(e);
  switch (e.type) {
    case 'RUN_STARTED':
    case 'RUN_FINISHED':
    case 'RUN_ERROR':
      applyRunEvent(d, e);
      return;
    case 'TEXT_MESSAGE_START':
    case 'TEXT_MESSAGE_CONTENT':
    case 'TEXT_MESSAGE_END':
    case 'TEXT_MESSAGE_CHUNK':
    case 'REASONING_START':
    case 'REASONING_MESSAGE_START':
    case 'REASONING_MESSAGE_CONTENT':
    case 'REASONING_MESSAGE_CHUNK':
    case 'REASONING_MESSAGE_END':
    case 'REASONING_END':
      applyTextEvent(d, e, ts);
      return;
    case 'TOOL_CALL_START':
    case 'TOOL_CALL_ARGS':
    case 'TOOL_CALL_END':
    case 'TOOL_CALL_CHUNK':
    case 'TOOL_CALL_RESULT':
      applyToolEvent(d, e, ts);
      return;
    case 'MESSAGES_SNAPSHOT':
      applyMessagesSnapshot(d, e.messages, ts);
      return;
    case 'STATE_SNAPSHOT':
      d.s.agentState = e.snapshot;
      return;
    case 'CUSTOM':
      applyCustom(d, e.name, e.value, ts);
      return;
    case 'OTHER':
      return;
  }
}

export function reduceEvents(state: ThreadState, events: readonly AguiEvent[]): ThreadState {
  if (!events.length) return state;
  const d = new Draft(state);
  for (const e of events) applyEvent(d, e);
  reopenIfCallRuns(d);
  return d.s;
}
