import type { Transport } from '../transport/types';
import type { AguiEvent } from '../transport/agui';
import { postTask } from './afterPaint';
import { firstComposerInput, markStartup, startupMarks } from './startupMarks';

/**
 * The desktop bench's counter (JUNCTURE_BENCH=1, seen as `Status.bench`):
 * the window title becomes `bench <chars> <state> <runs> <stop>` — the
 * characters of assistant TEXT_MESSAGE_CONTENT received since the page
 * loaded, how the last run ended (`running`, `done`, `interrupted`,
 * `cancelled`, `error`), how many runs started, and the last Stop as
 * `<painted>/<received>/<shown>/<frame>/<task>/<esc>` in ms from the Esc
 * key in the page (`-` before any; esc is the key's own time, epoch ms):
 * painted is the first frame that shows the cancelled state (the
 * composer's Send button back in place of Stop) rendered, timed at the
 * first moment known to follow that frame's paint — a message posted from
 * its animation frame callback (task, kept on its own) or the next frame's
 * callback, whichever comes first; frame is when that frame's callback ran
 * (its paint follows: a lower bound); received is the cancelled RUN_FINISHED arriving back in the page (through
 * the Wails call and the runtime); shown is the DOM change (the commit)
 * — so scripts/bench-desktop.sh reads it from outside with
 * `xdotool getwindowname`. A Wails window does not follow
 * document.title, so the title also goes through the runtime's
 * WindowSetTitle. At most one title write per animation frame. A sixth
 * field, once the last answer shows a numbered stream, says whether its
 * words are contiguous (viewCheck; `-` when a seventh follows), a seventh,
 * once the composer took its first key, says when (epoch ms: the start-up
 * bench), an eighth then lists the page's start-up marks
 * (lib/startupMarks.ts), and F5 reloads the page. Returns the
 * function that stops counting.
 */
export function startBenchTitle(
  transport: Transport,
  setTitle = defaultSetTitle,
  now = () => performance.now(),
  cancelledShown = composerIdle,
): () => void {
  let chars = 0;
  let runs = 0;
  let state = 'idle';
  let stopMs = '-';
  let watch: StopWatch | null = null; // a Stop pressed during a run, until it painted and the runtime confirmed it
  const assistant = new Set<string>(); // messages whose text counts (not the echoed user input)
  let frame = 0;
  // The view check (a sixth field, only once a numbered answer shows): see viewCheck.
  let view = '';
  // When the composer first took a key (epoch ms): the start-up bench.
  let typed = firstComposerInput() ? String(firstComposerInput()) : ''; // a key taken before the counter started counts when it was taken
  // The page's start-up marks (lib/startupMarks.ts) as last written: an eighth field once typed.
  let marked = '';
  // The composer's Stop button, as `btn=x,y,w,h` in CSS pixels, read once
  // per run (a layout read each frame would cost the streaming bench): the
  // Stop bench watches those pixels on the screen (bench/xstop).
  let btn = '';
  const write = () => {
    frame = 0;
    marked = typed ? startupMarks() : '';
    if (state === 'running' && !btn) btn = stopButton();
    const tail = typed ? ` ${view || '-'} ${typed} ${marked}` : view ? ` ${view}` : '';
    setTitle(`bench ${chars} ${state} ${runs} ${stopMs}${tail}${btn ? ` ${btn}` : ''}`);
  };
  const probe = () => {
    const v = viewCheck();
    if (v !== view || (typed && startupMarks() !== marked)) {
      view = v;
      if (!frame) frame = requestAnimationFrame(write);
    }
  };
  const timer = setInterval(probe, 50);
  // Capture phase: before the composer's own Esc handler sends Stop.
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && state === 'running' && !watch) watch = startStop(now());
    // A reload the desktop test can press (F5 or Ctrl+Shift+R; a Wails window has no reload key).
    if (e.key === 'F5' || (e.ctrlKey && e.shiftKey && (e.key === 'R' || e.key === 'r'))) {
      e.preventDefault();
      if (window.runtime?.WindowReload) window.runtime.WindowReload();
      else window.location.reload();
    }
  };
  document.addEventListener('keydown', onKey, true);
  const onInput = (e: Event) => {
    if (typed || !(e.target instanceof HTMLTextAreaElement) || !e.target.closest('.composer')) return;
    typed = String(Math.round(performance.timeOrigin + performance.now()));
    if (!frame) frame = requestAnimationFrame(write);
  };
  document.addEventListener('input', onInput, true);
  markStartup('counter'); // keys count from here on
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
        btn = '';
        return true;
      case 'RUN_FINISHED':
        state = e.outcome.type === 'success' ? 'done' : e.outcome.type === 'interrupt' ? 'interrupted' : 'cancelled';
        if (watch) {
          if (state === 'cancelled') watch.received(now());
          else dropStop(); // the run ended otherwise: no Stop to time
        }
        return true;
      case 'RUN_ERROR':
        state = 'error';
        dropStop();
        return true;
      default:
        return false;
    }
  }
  function dropStop() {
    watch?.stop();
    watch = null;
  }
  // From the Esc key: the DOM showing the cancelled state (a mutation
  // observer), the first frame that renders it (checked in each animation
  // frame callback; a message posted from there runs once that frame
  // painted) and the cancelled RUN_FINISHED; the title gets the three once
  // the last of them came.
  function startStop(t0: number): StopWatch {
    let shown = -1;
    let frameAt = -1; // the frame that renders it began (a lower bound of its paint)
    let painted = ''; // the first moment known to follow that frame's paint
    let task = ''; // the task posted from that frame (the figure before 2026-12-03)
    let received = -1;
    let raf = 0;
    let cancelTask = () => {};
    const obs = new MutationObserver(() => {
      if (shown < 0 && cancelledShown()) shown = now() - t0;
    });
    obs.observe(document.body, { childList: true, subtree: true, attributes: true });
    const stop = () => {
      obs.disconnect();
      cancelAnimationFrame(raf);
      cancelTask();
    };
    const finish = () => {
      if (!painted || !task || received < 0) return;
      stop();
      // the Esc key on the wall clock (epoch ms): the bench sets the app's
      // log (when the Interrupt call reached Go) against it
      const esc = (performance.timeOrigin + t0).toFixed(3);
      const began = frameAt < 0 ? '-' : frameAt.toFixed(2);
      stopMs = `${painted}/${received.toFixed(2)}/${shown < 0 ? '-' : shown.toFixed(2)}/${began}/${task}/${esc}`;
      watch = null;
      if (!frame) frame = requestAnimationFrame(write);
    };
    const paintPassed = (taskToo: boolean) => {
      const t = (now() - t0).toFixed(2);
      if (!painted) painted = t;
      if (taskToo) task = t;
      finish();
    };
    const tick = () => {
      raf = 0;
      if (cancelledShown()) {
        if (shown < 0) shown = now() - t0;
        frameAt = now() - t0;
        // This is the callback of the frame that renders it; its paint
        // (style, layout, the layer flush) follows in the same rendering
        // update. Two moments are known to come after that paint: a task
        // posted from here, and the next frame's callback. The task can
        // queue behind the stream's event tasks, so the first of the two
        // is the figure; the task's own is kept beside it.
        cancelTask = postTask(() => paintPassed(true));
        raf = requestAnimationFrame(() => {
          raf = 0;
          paintPassed(false);
        });
        return;
      }
      // a state that never shows in 5 s says so
      if (now() - t0 > 5000) {
        painted = task = 'never';
        finish();
      } else raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return {
      stop,
      received: (t) => {
        received = t - t0;
        finish();
      },
    };
  }
  write();
  return () => {
    off();
    dropStop();
    clearInterval(timer);
    document.removeEventListener('keydown', onKey, true);
    document.removeEventListener('input', onInput, true);
    if (frame) cancelAnimationFrame(frame);
  };
}

interface StopWatch {
  stop(): void;
  /** The cancelled RUN_FINISHED arrived at t. */
  received(t: number): void;
}

/**
 * What the last answer shows of a numbered stream (the demo's "count":
 * w001 w002 …): `w<N>` when its words are w001…wN in order, `HOLE<i>` at
 * the first word out of place, '' when it shows none. The desktop reload
 * test (scripts/desktop-reload.sh) reads it from the window title.
 */
export function viewCheck(root: ParentNode = document): string {
  const answers = root.querySelectorAll('article[aria-label="Juncture said"]');
  const last = answers[answers.length - 1] as HTMLElement | undefined;
  // textContent, not innerText: innerText lays the page out, and this runs
  // every 50 ms while an answer streams (a word split over two blocks
  // still reads as one: the words carry their own spaces).
  const words = (last?.textContent ?? '').match(/w\d{3}/g);
  if (!words) return '';
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== `w${String(i + 1).padStart(3, '0')}`) return `HOLE${i + 1}`;
  }
  return `w${words.length}`;
}

/** The cancelled (or any ended) run as the person sees it: the composer's
 *  Send button is back where Stop was. */
/** The Stop button's rectangle as `btn=x,y,w,h` (whole CSS pixels, covering it), or '' when none shows. */
function stopButton(): string {
  const b = document.querySelector('.composer .composer-btn.stop');
  if (!b) return '';
  const r = b.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return '';
  const x = Math.floor(r.left);
  const y = Math.floor(r.top);
  return `btn=${x},${y},${Math.ceil(r.right) - x},${Math.ceil(r.bottom) - y}`;
}

function composerIdle(): boolean {
  return document.querySelector('.composer .composer-btn.send') !== null;
}

function defaultSetTitle(title: string): void {
  document.title = title;
  window.runtime?.WindowSetTitle?.(title);
}
