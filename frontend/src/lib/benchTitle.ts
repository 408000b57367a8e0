import type { Transport } from '../transport/types';
import type { AguiEvent } from '../transport/agui';

/**
 * The desktop bench's counter (JUNCTURE_BENCH=1, seen as `Status.bench`):
 * the window title becomes `bench <chars> <state> <runs>` — the characters
 * of assistant TEXT_MESSAGE_CONTENT received since the page loaded, how the
 * last run ended (`running`, `done`, `interrupted`, `cancelled`, `error`)
 * and how many runs started — so scripts/bench-desktop.sh reads it from
 * outside with `xdotool getwindowname`. A Wails window does not follow
 * document.title, so the title also goes through the runtime's
 * WindowSetTitle. At most one title write per animation frame. Returns the
 * function that stops counting.
 */
export function startBenchTitle(transport: Transport, setTitle = defaultSetTitle): () => void {
  let chars = 0;
  let runs = 0;
  let state = 'idle';
  const assistant = new Set<string>(); // messages whose text counts (not the echoed user input)
  let frame = 0;
  const write = () => {
    frame = 0;
    setTitle(`bench ${chars} ${state} ${runs}`);
  };
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
    if (frame) cancelAnimationFrame(frame);
  };
}

function defaultSetTitle(title: string): void {
  document.title = title;
  window.runtime?.WindowSetTitle?.(title);
}
