// Benchmark (not a test): is the composer responsive while a 1,000
// tokens/s answer streams? Launches the real app against the demo model,
// sends "firehose" (6,000 words at ~1,000 words/s) and, while it streams,
// types 200 characters into the composer (page.keyboard.type, 20 ms delay).
// Measured in the page:
//   - input latency per keystroke: keydown (event.timeStamp) to the next
//     animation frame after the textarea's value changed;
//   - long tasks (PerformanceObserver 'longtask') during the stream;
//   - frame rate (requestAnimationFrame callbacks per second) during the stream;
//   - first text delta to RUN_FINISHED on the page's event stream, against
//     the server's pacing (599 × 10 ms after the first chunk).
// It checks that the composer holds exactly what was typed and that the
// stored answer has all 6,000 words.
//
//   node bench-typing.mjs [--runs=3] [--no-build]
import { buildBinaries, launch, latestThread } from './harness.mjs';

const args = process.argv.slice(2);
const runs = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 1);
const WORDS = 6000; // agent/fakellm firehoseWords
const PACED_MS = (WORDS / 10 - 1) * 10; // delays after the first chunk
const TYPED = 'The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. '
  .repeat(3).slice(0, 200);

// Installed before the app loads: timestamps of the AG-UI events as the page
// receives them, long tasks, and a frame counter that runs once started.
function instrument() {
  const b = (window.__bench = { firstDelta: null, lastDelta: null, deltas: 0, finished: null, longtasks: [], frames: [], framing: false });
  const ES = window.EventSource;
  window.EventSource = class extends ES {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (ev) => {
        const d = typeof ev.data === 'string' ? ev.data : '';
        const t = performance.now();
        if (d.includes('"TEXT_MESSAGE_CONTENT"')) {
          b.deltas++;
          if (b.firstDelta === null) b.firstDelta = t;
          b.lastDelta = t;
        } else if (d.includes('"RUN_FINISHED"')) {
          b.finished = t;
        }
      });
    }
  };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch { b.longtasks = null; }
  b.startFrames = () => {
    if (b.framing) return;
    b.framing = true;
    const tick = (t) => { b.frames.push(t); if (b.framing) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  };
}

// Installed on the composer: one record per keystroke.
function watchKeys() {
  const ta = document.querySelector('section[aria-label="Message composer"] textarea') ?? document.querySelector('textarea');
  const b = window.__bench;
  b.keys = [];
  b.pending = [];
  ta.addEventListener('keydown', (e) => {
    if (e.key.length !== 1) return; // printable characters only (not Enter, Shift)
    b.pending.push({ key: e.key, stamp: e.timeStamp, handler: performance.now() });
  }, true);
  ta.addEventListener('input', () => {
    const k = b.pending.shift();
    if (!k) return;
    k.input = performance.now();
    k.len = ta.value.length;
    requestAnimationFrame(() => { k.frame = performance.now(); b.keys.push(k); });
  });
}

function pct(xs, p) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : String(x));

async function once(n) {
  const app = await launch({ open: false });
  try {
    const { page } = app;
    await page.addInitScript(instrument);
    await app.open();
    const composer = page.getByRole('textbox', { name: /message/i });
    await composer.waitFor({ timeout: 15000 });
    await page.evaluate(watchKeys);
    await composer.fill('open the firehose');
    await page.evaluate(() => window.__bench.startFrames());
    await composer.press('Enter');
    await page.waitForFunction(() => window.__bench.firstDelta !== null, null, { timeout: 15000 });
    await page.evaluate(() => { window.__bench.keys = []; window.__bench.pending = []; });
    await composer.focus();
    const typeStart = await page.evaluate(() => performance.now());
    await page.keyboard.type(TYPED, { delay: 20 });
    const typeEnd = await page.evaluate(() => performance.now());
    await page.waitForFunction(() => window.__bench.finished !== null, null, { timeout: 60000 });
    await page.waitForFunction((n) => window.__bench.keys.length >= n, TYPED.length, { timeout: 5000 }).catch(() => {});
    const b = await page.evaluate(() => { const b = window.__bench; b.framing = false; const { startFrames, ...rest } = b; return rest; });
    const value = await composer.inputValue();

    const streamMs = b.finished - b.firstDelta;
    const latency = (k) => k.frame - (k.stamp > 0 && k.stamp <= k.handler ? k.stamp : k.handler);
    const lat = b.keys.map(latency);
    const queue = b.keys.map((k) => (k.stamp > 0 && k.stamp <= k.handler ? k.handler - k.stamp : 0));
    const latIn = b.keys.filter((k) => k.handler <= b.finished).map(latency);
    const latAfter = b.keys.filter((k) => k.handler > b.finished).map(latency);
    const during = latIn.length;
    const frames = b.frames.filter((t) => t >= b.firstDelta && t <= b.finished);
    const gaps = frames.slice(1).map((t, i) => t - frames[i]);
    const lts = b.longtasks?.filter((l) => l.start + l.duration >= b.firstDelta && l.start <= b.finished) ?? [];

    const tid = await latestThread(app);
    const view = await app.api('GetThread', tid);
    const answer = view.messages.filter((m) => m.role === 'assistant').at(-1)?.content ?? '';
    const answerWords = answer.split(/\s+/).filter(Boolean).length;

    const r = {
      run: n,
      keys: b.keys.length,
      keysDuringStream: during,
      p50: pct(lat, 50), p95: pct(lat, 95), max: Math.max(...lat),
      queueMax: Math.max(...queue),
      inP50: pct(latIn, 50), inP95: pct(latIn, 95), inMax: Math.max(...latIn),
      afterP50: pct(latAfter, 50), afterP95: pct(latAfter, 95), afterMax: latAfter.length ? Math.max(...latAfter) : NaN,
      fps: (frames.length - 1) / ((frames.at(-1) - frames[0]) / 1000),
      worstFrameGap: Math.max(...gaps),
      longTasks: b.longtasks === null ? 'n/a' : lts.length,
      longTaskMs: lts.reduce((s, l) => s + l.duration, 0),
      longTaskMax: lts.length ? Math.max(...lts.map((l) => l.duration)) : 0,
      streamMs, pacedMs: PACED_MS, wordsPerSec: (WORDS / streamMs) * 1000,
      deltaEvents: b.deltas,
      finishAfterLastDelta: b.finished - b.lastDelta,
      typingMs: typeEnd - typeStart,
      composerOk: value === TYPED,
      answerWords,
      pageErrors: app.consoleErrors.length,
    };
    console.log(
      `run ${n}: input latency p50 ${f1(r.p50)} ms, p95 ${f1(r.p95)} ms, max ${f1(r.max)} ms ` +
      `(${r.keys}/${TYPED.length} keys; worst keydown queueing ${f1(r.queueMax)} ms)\n` +
      `       ${r.keysDuringStream} keys during the stream: p50 ${f1(r.inP50)}, p95 ${f1(r.inP95)}, max ${f1(r.inMax)} ms; ` +
      `${r.keys - r.keysDuringStream} after it (idle): p50 ${f1(r.afterP50)}, p95 ${f1(r.afterP95)}, max ${f1(r.afterMax)} ms\n` +
      `       fps ${f1(r.fps)} during the stream (worst frame gap ${f1(r.worstFrameGap)} ms); ` +
      `long tasks ${r.longTasks}, total ${f1(r.longTaskMs)} ms, longest ${f1(r.longTaskMax)} ms\n` +
      `       first delta → RUN_FINISHED ${f1(r.streamMs)} ms vs server pacing ${r.pacedMs} ms ` +
      `(×${(r.streamMs / r.pacedMs).toFixed(3)}, ${r.wordsPerSec.toFixed(0)} words/s; ${r.deltaEvents} delta events; ` +
      `RUN_FINISHED ${f1(r.finishAfterLastDelta)} ms after the last delta)\n` +
      `       typing took ${f1(r.typingMs)} ms; composer text ${r.composerOk ? 'equals what was typed' : `DIFFERS: ${JSON.stringify(value)}`}; ` +
      `stored answer ${r.answerWords}/${WORDS} words; page errors ${r.pageErrors}`,
    );
    if (!r.composerOk || r.keys !== TYPED.length || r.answerWords !== WORDS || r.pageErrors) {
      console.log('       FAILED:', JSON.stringify({ composerOk: r.composerOk, keys: r.keys, answerWords: r.answerWords, errors: app.consoleErrors }));
      r.failed = true;
    }
    return r;
  } finally {
    await app.close();
  }
}

if (!args.includes('--no-build')) buildBinaries();
const results = [];
for (let i = 1; i <= runs; i++) results.push(await once(i));
if (runs > 1) {
  const med = (k) => pct(results.map((r) => r[k]), 50);
  console.log(`median of ${runs}: during the stream p50 ${f1(med('inP50'))} ms, p95 ${f1(med('inP95'))} ms, max ${f1(med('inMax'))} ms; all keys p50 ${f1(med('p50'))} ms, p95 ${f1(med('p95'))} ms, max ${f1(med('max'))} ms, fps ${f1(med('fps'))}, ` +
    `long tasks ${med('longTasks')} (${f1(med('longTaskMs'))} ms), stream ${f1(med('streamMs'))} ms`);
}
if (results.some((r) => r.failed)) process.exitCode = 1;
