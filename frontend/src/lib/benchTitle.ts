import type { Transport } from '../transport/types';
import type { AguiEvent } from '../transport/agui';

/**
 * The desktop bench's counter (JUNCTURE_BENCH=1, seen as `Status.bench`):
 * the window title becomes `bench <chars> <state> <runs> <stop>` — the
 * characters of assistant TEXT_MESSAGE_CONTENT received since the page
 * loaded, how the last run ended (`running`, `done`, `interrupted`,
 * `cancelled`, `error`), how many runs started, and the last Stop's latency
 * in ms (`-` before any): from the Esc key in the page, through the Wails
 * call and the runtime, to the cancelled RUN_FINISHED arriving back in the
 * page — so scripts/bench-desktop.sh reads it from
 * outside with `xdotool getwindowname`. A Wails window does not follow
 * document.title, so the title also goes through the runtime's
 * WindowSetTitle. At most one title write per animation frame. Returns the
 * function that stops counting.
 */
export function startBenchTitle(
  transport: Transport,
  setTitle = defaultSetTitle,
  now = () => performance.now(),
): () => void {
  let chars = 0;
  let runs = 0;
  let state = 'idle';
  let stopAt = 0; // when Esc was pressed during a run
  let stopMs = '-';
  const assistant = new Set<string>(); // messages whose text counts (not the echoed user input)
  let frame = 0;
  const write = () => {
    frame = 0;
    setTitle(`bench ${chars} ${state} ${runs} ${stopMs}`);
  };
  // Capture phase: before the composer's own Esc handler sends Stop.
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && state === 'running') stopAt = now();
  };
  document.addEventListener('keydown', onKey, true);
  const off = transport.subscribe('agui', ({ event }) => {
    if (!count(event)) return;
    if (!frame) frame = requestAnimationFrame(write);
  });
  function count(e: AguiEvent): boolean {
    switch (e.type) {
      case 'TEXT_MESSAGE_START':
        if (e.role === 'assistant') assistant.add(e.messageId);
        return false;
      case 'TEXT_MESSAGE_CONTENT':
        if (!assistant.has(e.messageId)) return false;
        chars += e.delta.length;
        return true;
      case 'RUN_STARTED':
        runs++;
        state = 'running';
        return true;
      case 'RUN_FINISHED':
        state = e.outcome.type === 'success' ? 'done' : e.outcome.type === 'interrupt' ? 'interrupted' : 'cancelled';
        if (state === 'cancelled' && stopAt) {
          stopMs = (now() - stopAt).toFixed(2);
          stopAt = 0;
        }
        return true;
      case 'RUN_ERROR':
        state = 'error';
        return true;
      default:
        return false;
    }
  }
  write();
  return () => {
    off();
    document.removeEventListener('keydown', onKey, true);
    if (frame) cancelAnimationFrame(frame);
  };
}

function defaultSetTitle(title: string): void {
  document.title = title;
  window.runtime?.WindowSetTitle?.(title);
}
