import type { ShownAttachment } from '../lib/attachments';
import type {
  AnswerResult,
  Interrupt,
  MessageStatus,
  PermissionRule,
  Thread,
  ThreadView,
  ToolPart,
  ToolProgress,
  ToolState,
} from '../transport/contract';
import type { AguiEvent } from '../transport/agui';
import type * as G from '../transport/contract.gen';

export const INTERRUPT_MARKER = '<system>User interrupted this message</system>';

/** One tool call with its live status and (attached) result. */
export interface ToolCallView {
  id: string;
  name: string;
  /** JSON text of the arguments as streamed / stored. */
  args: string;
  argsComplete: boolean;
  /** Assistant message that made the call ('' while only a status is known). */
  messageId: string;
  state?: ToolState;
  result?: string;
  isError?: boolean;
  runId?: string;
  /** The latest progress report while running (cleared by any other state). */
  progress?: ToolProgress;
  /** What the result holds besides its text (images, links, structured data), with the final state. */
  parts?: ToolPart[];
  /** The person edited the arguments before allowing the call: `args` are what ran. */
  edited?: true;
  /** The remembered rule that let the call run without asking. */
  allowedBy?: PermissionRule;
}

export interface UIMessage {
  id: string;
  role: 'user' | 'assistant' | 'tool' | 'system' | 'developer';
  content: string;
  reasoning: string;
  reasoningStreaming: boolean;
  toolCallIds: string[];
  status: MessageStatus;
  error?: string;
  createdAt: number;
  runId?: string;
  /** Tool messages that answer no known call keep their call id here. */
  toolCallId?: string;
  /** An optimistic user message not yet confirmed by Go. */
  local?: boolean;
  /** Created by reasoning before the answer's own START; adopted by it. */
  placeholder?: boolean;
  /** Its beginning was missed (the event stream was down): hidden until refetched. */
  partial?: boolean;
  /** The message it follows in the thread's tree (from the store). */
  parentId?: string;
  /** Its place among its parent's children, when it has siblings (an edited question, a regenerated answer). */
  branch?: BranchInfo;
  /** The endpoint's token count for the call that wrote this answer; absent when it reported none. */
  usage?: TokenUsage;
  /** The model that wrote this answer. */
  model?: string;
  /** Files the person sent with this message (lib/attachments.ts). */
  attachments?: ShownAttachment[];
  /**
   * Made from the live stream: what only the store knows (usage, branch)
   * comes with the next load, so a missing `usage` means "not known yet",
   * not "not reported".
   */
  detailsPending?: true;
}

/** An endpoint's token count for one model call (Go history.Usage). */
export type TokenUsage = G.Usage;

/** A message's place among its siblings (Go history.Branch): 1-based index, every sibling's id in order. */
export type BranchInfo = G.Branch;

/** A thread's token usage over every answer on every branch; `unreported` answers are not in `total` (ThreadView.usage). */
export type ThreadUsageTotals = G.ThreadUsage;

export type RunPhase = 'idle' | 'running' | 'awaiting' | 'error';

export interface RunError {
  message: string;
  code?: string;
  /** Item errors by interrupt id (RUN_ERROR metadata.tanstack.interruptErrors). */
  itemErrors: Record<string, string>;
}

/**
 * A client tool call waiting for this window, from the runtime's record of
 * it (the `pending-client` tool state event, or `ThreadView.clientTools`
 * after a load): `arguments` are the approved ones — edited by the person
 * when `edited` — never the streamed TOOL_CALL_ARGS.
 */
export interface PendingClientTool {
  toolCallId: string;
  toolName: string;
  arguments: string;
  /** The person edited the arguments on the approval card. */
  edited?: true;
  /** Restored from GetThread (e.g. after a restart): never run automatically. */
  restored: boolean;
}

export interface ThreadState {
  threadId: string | null;
  thread: Thread | null;
  loaded: boolean;
  messages: UIMessage[];
  toolCalls: Record<string, ToolCallView>;
  phase: RunPhase;
  runId: string | null;
  runError: RunError | null;
  interrupts: Interrupt[];
  clientTools: PendingClientTool[];
  /** Pending items (interrupt ids, client tool call ids) whose answer Go keeps: the batch is not complete yet. */
  answered: string[];
  /** What the last Answer said still needs an answer; null = not known (derive it). */
  waiting: string[] | null;
  queued: string[];
  agentState: unknown;
  /** Reasoning message / span id → the UI message that shows it. */
  reasoningTarget: Record<string, string>;
  lastTextChunkId: string | null;
  lastReasoningChunkId: string | null;
  lastToolChunkId: string | null;
  /** The view may have missed or double-counted deltas: refetch at the next quiet point. */
  needsResync: boolean;
  /**
   * The active path changed (juncture.path_changed: a branch switch, an
   * edit, a regenerate): reload the view now, even mid-run (the exact load
   * applies what streams after it).
   */
  needsReload: boolean;
  /**
   * Answers finished live lack what only the store has (usage, branch):
   * refetch at the next quiet point.
   */
  needsRefresh: boolean;
  /**
   * The run paused (an approval, a question, a client tool) after answers
   * finished live: read what only the store has of them (usage, model,
   * branch) now, leaving what waits as it is (ThreadAction 'details').
   */
  needsDetails: boolean;
  /** Token usage of the whole thread (every branch), from the last load. */
  usage: ThreadUsageTotals | null;
}

export type ThreadAction =
  | { type: 'reset'; threadId: string | null; thread?: Thread | null }
  | { type: 'load'; view: ThreadView; pending?: AguiEvent[]; keepError?: boolean }
  | { type: 'events'; events: AguiEvent[] }
  | { type: 'queue'; queued: string[] }
  | { type: 'localUser'; id: string; text: string; createdAt: number; attachments?: ShownAttachment[] | undefined }
  | { type: 'dropLocal'; id: string }
  /** An Answer call was accepted for these item ids. */
  | { type: 'answered'; ids: string[]; result: AnswerResult }
  /** The resync or refresh the state asked for is under way. */
  | { type: 'resynced' }
  /** The reload after a path change is under way. */
  | { type: 'reloaded' }
  /** The read of stored details the state asked for (needsDetails) is under way. */
  | { type: 'detailsAsked' }
  /** Stored details (usage, model, branch) of answers finished live, from a GetThread view; nothing else changes. */
  | { type: 'details'; view: ThreadView }
  | { type: 'setThread'; thread: Thread }
  /**
   * The person pressed Stop while the model streams text (no tool call of
   * the run open): the answer shows stopped at once, before the runtime's
   * cancelled RUN_FINISHED confirms it (runEvents `stopShown`).
   */
  | { type: 'stopping' }
  /** The Interrupt call failed: read the thread again to show what runs. */
  | { type: 'stopFailed'; threadId: string };

export function emptyThreadState(threadId: string | null = null, thread: Thread | null = null): ThreadState {
  return {
    threadId,
    thread,
    loaded: threadId === null,
    messages: [],
    toolCalls: {},
    phase: 'idle',
    runId: null,
    runError: null,
    interrupts: [],
    clientTools: [],
    answered: [],
    waiting: null,
    queued: [],
    agentState: null,
    reasoningTarget: {},
    lastTextChunkId: null,
    lastReasoningChunkId: null,
    lastToolChunkId: null,
    needsResync: false,
    needsReload: false,
    needsRefresh: false,
    needsDetails: false,
    usage: null,
  };
}
