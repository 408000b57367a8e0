import { useCallback, useContext, useEffect, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import type { Transport } from '../../transport';
import { TransportContext } from '../../transport';
import type { AppViewOpen, ToolState, ToolStateEvent } from '../../transport/contract.gen';
import type { ToolPart } from '../../transport/contract';
import { toJunctureError } from '../../transport/errors';
import type { ToolCallView } from '../../state/types';
import { isDarkTheme, subscribeTheme } from '../../lib/mermaid';
import { LinkConfirm } from '../tools/ToolParts';
import { AppHost, MAX_INLINE_HEIGHT, acceptMessage, type CallToolResult, type HostContext } from './bridge';
import './AppView.css';
import { AlertLine } from '../../ui/AlertLine';
import { useModalDialog } from '../../hooks/useModalDialog';

// An MCP App's view inside its tool block (README "MCP servers" → Apps).
//
// The frame loads /appview/<single-use name> (app/mcpapps.go): a page with
// its own CSP and "sandbox allow-scripts", in an <iframe sandbox=
// "allow-scripts"> — an opaque origin, so the view cannot reach this
// window's script, storage, cookies or bearer token; no popups, no top
// navigation, no forms. The window's own CSP (frame-src 'self') keeps the
// frame from being navigated to another site. A second load of the frame
// (the view reloading or leaving) stops it.
//
// A view starts by itself only when its result arrived while this page was
// open; after a reload (or in an old chat) it is a placeholder until the
// person clicks it.
//
// "Open larger" shows the frame's <dialog> as a modal: the top layer puts it
// above the whole window, out of the message row (whose transform and layout
// containment would hold a position: fixed box to the row), and makes the
// rest of the window inert while it is open. The iframe never moves, so the
// view is not reloaded. A call from the view that waits for the person's
// approval or answer brings the view back into the chat, where the card is.

/** Calls seen without a result in this page: their views may start on their own. */
const liveCalls = new Set<string>();
/** Calls whose view the person started (kept across re-mounts, forgotten on reload). */
const started = new Set<string>();

/** When this page loaded (ms since epoch): a message made since is live. */
export const PAGE_LOADED_AT = Math.floor(performance.timeOrigin);

/** ToolBlock notes each call made while this page was open (or seen before its result). */
export function noteLiveCall(id: string): void {
  liveCalls.add(id);
}

/** For tests: forget what this page saw. */
export function resetAppViews(): void {
  liveCalls.clear();
  started.clear();
}

const LARGE_HEIGHT = () => Math.max(240, Math.round(window.innerHeight * 0.8));
const VIEW_CALL_TIMEOUT_MS = 15 * 60 * 1000;

function parseArgs(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args || '{}');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function resultOf(content: string, isError: boolean, parts: readonly ToolPart[] | undefined): CallToolResult {
  const r: CallToolResult = { content: [{ type: 'text', text: content }] };
  const s = parts?.find((p) => p.kind === 'structured');
  if (s?.json !== undefined) r.structuredContent = s.json;
  if (isError) r.isError = true;
  return r;
}

/**
 * A view's tools/call: CallToolFromView starts it in the thread (an
 * approval card when it needs one); its result comes back on the event
 * stream, as the window sees every call's. onState hears each state the
 * call reaches (an approval waiting, running, done…).
 */
export function callFromView(
  transport: Transport,
  threadId: string,
  parentCallId: string,
  tool: string,
  args: Record<string, unknown>,
  onState?: (state: ToolState) => void,
): Promise<CallToolResult> {
  return new Promise((resolve, reject) => {
    let callId: string | null = null;
    let done = false;
    let told: ToolState | null = null;
    const tell = () => {
      const st = callId === null ? undefined : parts.get(callId);
      if (done || !st || st.state === told) return;
      told = st.state;
      onState?.(st.state);
    };
    const results = new Map<string, { content: string; failed: boolean }>();
    const parts = new Map<string, ToolStateEvent>();
    const finish = () => {
      if (done || callId === null) return;
      const r = results.get(callId);
      if (!r) return;
      done = true;
      unsub();
      clearTimeout(timer);
      const st = parts.get(callId);
      const failed = r.failed || st?.state === 'failed' || st?.state === 'denied' || st?.state === 'interrupted';
      resolve(resultOf(r.content, failed, st?.parts));
    };
    const unsub = transport.subscribe('agui', ({ threadId: tid, event }) => {
      if (tid !== threadId) return;
      if (event.type === 'CUSTOM' && event.name === 'juncture.tool_state') {
        const v = event.value as ToolStateEvent | null;
        if (v && typeof v.toolCallId === 'string') {
          parts.set(v.toolCallId, v);
          tell();
        }
      } else if (event.type === 'TOOL_CALL_RESULT') {
        results.set(event.toolCallId, { content: event.content, failed: false });
        // The final state (with the parts) follows the result at once.
        setTimeout(finish, 60);
      }
    });
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      unsub();
      reject(new Error('No answer came for the call in 15 minutes.'));
    }, VIEW_CALL_TIMEOUT_MS);
    transport.call('CallToolFromView', { threadId, parentCallId, tool, arguments: args as never }).then(
      (id) => {
        callId = id;
        tell();
        finish();
      },
      (e: unknown) => {
        done = true;
        unsub();
        clearTimeout(timer);
        reject(new Error(toJunctureError(e).message));
      },
    );
  });
}

type Phase = 'inert' | 'loading' | 'live' | 'stopped' | 'error';
type Ask = { kind: 'link'; url: string } | { kind: 'message'; text: string };
type Question = Ask & { answer: (ok: boolean) => void };

export function AppView({ threadId, tool, part }: { threadId: string | undefined; tool: ToolCallView; part: ToolPart }) {
  const transport = useContext(TransportContext);
  const server = part.name || 'the server';
  const [phase, setPhase] = useState<Phase>(() => (liveCalls.has(tool.id) || started.has(tool.id) ? 'loading' : 'inert'));
  const [view, setView] = useState<AppViewOpen | null>(null);
  const [note, setNote] = useState('');
  const [height, setHeight] = useState(160);
  const [large, setLarge] = useState(false);
  const [question, setQuestion] = useState<Question | null>(null);
  const [calling, setCalling] = useState<string | null>(null);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const wrapRef = useRef<HTMLDialogElement>(null);
  const hostRef = useRef<AppHost | null>(null);
  const loads = useRef(0);
  const largeRef = useRef(false);
  largeRef.current = large;

  // Stopping takes the frame and its buttons away: focus held there moves
  // to the button that loads the view again (not the page body, where a
  // keyboard loses its place).
  const startRef = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const stop = useCallback((why: string) => {
    const active = document.activeElement;
    refocus.current = !!active && !!wrapRef.current?.contains(active);
    hostRef.current?.stop();
    hostRef.current = null;
    setQuestion((q) => {
      q?.answer(false);
      return null;
    });
    setNote(why);
    setPhase('stopped');
    setLarge(false);
  }, []);

  // Read the view from its server when it may start.
  useEffect(() => {
    if (phase !== 'loading') return;
    if (!transport || !threadId) {
      setNote('This view cannot be shown here.');
      setPhase('error');
      return;
    }
    let cancelled = false;
    transport.call('OpenAppView', threadId, tool.id).then(
      (v) => {
        if (cancelled) return;
        loads.current = 0;
        setView(v);
        setPhase('live');
      },
      (e: unknown) => {
        if (cancelled) return;
        setNote(toJunctureError(e).message);
        setPhase('error');
      },
    );
    return () => {
      cancelled = true;
    };
  }, [phase, transport, threadId, tool.id]);

  // The host side, for as long as the frame lives.
  useEffect(() => {
    const frame = frameRef.current;
    if (phase !== 'live' || !frame || !transport || !threadId) return;
    const context = (): HostContext => ({
      theme: isDarkTheme() ? 'dark' : 'light',
      displayMode: largeRef.current ? 'fullscreen' : 'inline',
      availableDisplayModes: ['inline', 'fullscreen'],
      containerDimensions: { maxHeight: largeRef.current ? LARGE_HEIGHT() : MAX_INLINE_HEIGHT },
      locale: navigator.language || 'en',
      platform: transport.kind === 'desktop' ? 'desktop' : 'web',
    });
    const ask = (q: Ask) => new Promise<boolean>((resolve) => setQuestion({ ...q, answer: resolve }));
    const host = new AppHost({
      post: (m) => frame.contentWindow?.postMessage(m, '*'),
      callTool: async (name, args) => {
        setCalling(name);
        try {
          return await callFromView(transport, threadId, tool.id, name, args, (state) => {
            if (state === 'awaiting-approval' || state === 'awaiting-answer') setLarge(false);
          });
        } finally {
          setCalling(null);
        }
      },
      confirmLink: (url) => ask({ kind: 'link', url }),
      confirmMessage: (text) => ask({ kind: 'message', text }),
      // The view's own height is for the chat: larger, the host sizes the
      // frame, and what the view measures there (often the frame itself)
      // would keep the inline frame that tall after "Back to the chat".
      resize: (h) => {
        if (!largeRef.current) setHeight(h);
      },
      context,
      onFlood: () => stop('This view sent too many messages and was stopped.'),
      toolInput: parseArgs(tool.args),
      toolResult: tool.result === undefined ? null : resultOf(tool.result, !!tool.isError, tool.parts),
    });
    hostRef.current = host;
    const onMessage = (e: MessageEvent) => {
      if (acceptMessage(e, frame.contentWindow)) host.handle(e.data);
    };
    window.addEventListener('message', onMessage);
    const unsubTheme = subscribeTheme(() => host.contextChanged());
    return () => {
      window.removeEventListener('message', onMessage);
      unsubTheme();
      host.stop();
      if (hostRef.current === host) hostRef.current = null;
    };
    // The frame and its host live as long as the view; the tool's fields are read once.
  }, [phase, view, transport, threadId, tool.id, stop]);

  useEffect(() => {
    hostRef.current?.contextChanged();
  }, [large]);

  useEffect(() => {
    if (phase !== 'stopped' || !refocus.current) return;
    refocus.current = false;
    startRef.current?.focus();
  }, [phase]);

  useModalDialog(wrapRef, large);
  // Esc in the large view: back to the chat (the dialog's cancel, kept from
  // closing it behind React's back).
  const onCancel = (e: Event) => {
    e.preventDefault();
    setLarge(false);
  };
  // A click on the backdrop (the dialog is the target, the point outside its
  // box) goes back, when the press was there too: a drag from inside the view
  // let go over the backdrop clicks the dialog (the box holding both ends).
  const pressedBackdrop = useRef(false);
  const onBackdrop = (e: ReactMouseEvent<HTMLDialogElement>) => {
    if (e.target !== e.currentTarget) return false;
    const r = e.currentTarget.getBoundingClientRect();
    return e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
  };
  const onWrapMouseDown = (e: ReactMouseEvent<HTMLDialogElement>) => {
    pressedBackdrop.current = large && onBackdrop(e);
  };
  const onWrapClick = (e: ReactMouseEvent<HTMLDialogElement>) => {
    const pressed = pressedBackdrop.current;
    pressedBackdrop.current = false;
    if (large && pressed && onBackdrop(e)) setLarge(false);
  };

  const begin = () => {
    started.add(tool.id);
    setNote('');
    setPhase('loading');
  };

  if (phase === 'inert' || phase === 'stopped' || phase === 'error') {
    return (
      <div className="tool-part app-view is-inert">
        <button ref={startRef} type="button" className="app-view-start" onClick={begin}>
          <span className="app-view-start-title">
            {phase === 'inert' ? 'Interactive view' : phase === 'stopped' ? 'View stopped' : 'View not shown'} · {server}
          </span>
          <span className="app-view-start-hint">{phase === 'inert' ? 'Click to load it. It runs in a sandbox, apart from Juncture.' : 'Click to load it again.'}</span>
        </button>
        {note && (
          <p className="app-view-note" role={phase === 'inert' ? undefined : 'alert'}>
            {note}
          </p>
        )}
      </div>
    );
  }

  const frameHeight = large ? LARGE_HEIGHT() : height;
  return (
    <div className={`tool-part app-view${large ? ' is-large' : ''}${view?.prefersBorder ? ' has-border' : ''}`} role="group" aria-label={`View from ${server}`}>
      <dialog ref={wrapRef} className="app-view-frame-wrap" aria-label={large ? `View from ${server}, larger` : undefined} onCancel={onCancel} onMouseDown={onWrapMouseDown} onClick={onWrapClick}>
        <div className="app-view-bar">
          <span className="app-view-label">View · {server}</span>
          <button type="button" className="btn subtle small" onClick={() => setLarge((l) => !l)} aria-pressed={large}>
            {large ? 'Back to the chat' : 'Open larger'}
          </button>
          <button type="button" className="btn subtle small" onClick={() => stop('')}>
            Stop
          </button>
        </div>
        {phase === 'live' && view ? (
          <iframe
            ref={frameRef}
            className="app-view-frame"
            title={`Interactive view from ${server}`}
            src={view.url}
            sandbox="allow-scripts"
            referrerPolicy="no-referrer"
            allow=""
            style={{ height: frameHeight }}
            onLoad={() => {
              loads.current += 1;
              if (loads.current > 1) stop('The view tried to load another page and was stopped.');
            }}
          />
        ) : (
          <div className="app-view-loading" style={{ height: 64 }}>
            Loading the view…
          </div>
        )}
        {calling && (
          <p className="app-view-note" role="status">
            The view asked to call {calling}. Juncture asks you below when the call needs your approval.
          </p>
        )}
        {question?.kind === 'link' && (
          <div className="app-view-question">
            <p className="app-view-note">The view asks to open a link in your browser.</p>
            <LinkConfirm
              url={question.url}
              onOpened={() => {
                question.answer(true);
                setQuestion(null);
              }}
              onCancel={() => {
                question.answer(false);
                setQuestion(null);
              }}
            />
          </div>
        )}
        {question?.kind === 'message' && (
          <MessageConfirm
            text={question.text}
            onSend={async () => {
              if (!transport || !threadId) return 'This chat cannot take a message now.';
              try {
                await transport.call('SendInput', threadId, question.text);
              } catch (e) {
                return toJunctureError(e).message;
              }
              question.answer(true);
              setQuestion(null);
              return null;
            }}
            onCancel={() => {
              question.answer(false);
              setQuestion(null);
            }}
          />
        )}
      </dialog>
    </div>
  );
}

function MessageConfirm({ text, onSend, onCancel }: { text: string; onSend: () => Promise<string | null>; onCancel: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="app-view-question link-confirm" role="group" aria-label="The view asks to send a message">
      <p className="link-confirm-q">The view asks to send this message in the chat:</p>
      <blockquote className="app-view-quote">{text}</blockquote>
      <div className="link-confirm-actions">
        <button
          type="button"
          className="btn primary small"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onSend().then((err) => {
              setBusy(false);
              setError(err);
            });
          }}
        >
          Send
        </button>
        <button type="button" className="btn subtle small" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <AlertLine className="link-confirm-error" text={error} />
    </div>
  );
}
