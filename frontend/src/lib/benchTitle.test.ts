import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startBenchTitle, viewCheck } from './benchTitle';
import { FakeTransport } from '../test/fakeTransport';
import type { EventMap } from '../transport/events';

// The task posted after a frame (lib/afterPaint.ts postTask), run when the
// test says: a MessageChannel message's timing against timers is Node's.
const posted = vi.hoisted(() => new Set<() => void>());
vi.mock('./afterPaint', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./afterPaint')>()),
  postTask: (fn: () => void) => {
    posted.add(fn);
    return () => posted.delete(fn);
  },
}));
function runPostedTasks() {
  const fns = [...posted];
  posted.clear();
  for (const fn of fns) fn();
}

const ev = (event: Record<string, unknown>) => ({ threadId: 'th', event }) as unknown as EventMap['agui'];

describe('startBenchTitle', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] }));
  afterEach(() => vi.useRealTimers());

  it('counts assistant text and the last run state, one title per frame', () => {
    const t = new FakeTransport();
    const titles: string[] = [];
    const stop = startBenchTitle(t, (s) => titles.push(s));
    expect(titles).toEqual(['bench 0 idle 0 -']);
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r' }));
    t.emit('agui', ev({ type: 'TEXT_MESSAGE_START', messageId: 'u', role: 'user' }));
    t.emit('agui', ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'u', delta: 'hello' }));
    t.emit('agui', ev({ type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' }));
    t.emit('agui', ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'abc' }));
    t.emit('agui', ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'de' }));
    expect(titles).toHaveLength(1); // nothing before the frame
    vi.advanceTimersToNextFrame();
    expect(titles).toEqual(['bench 0 idle 0 -', 'bench 5 running 1 -']);
    t.emit('agui', ev({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r', outcome: { type: 'success' } }));
    vi.advanceTimersToNextFrame();
    expect(titles.at(-1)).toBe('bench 5 done 1 -');
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r2' }));
    t.emit('agui', ev({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r2', outcome: { type: 'cancelled' } }));
    vi.advanceTimersToNextFrame();
    expect(titles.at(-1)).toBe('bench 5 cancelled 2 -');
    stop();
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r3' }));
    vi.advanceTimersToNextFrame();
    expect(titles.at(-1)).toBe('bench 5 cancelled 2 -');
  });

  it('times Stop from the Esc key to the cancelled state painted, confirmed by the runtime, and in the DOM', async () => {
    const t = new FakeTransport();
    const titles: string[] = [];
    let clock = 1000;
    let shown = false;
    const stop = startBenchTitle(t, (s) => titles.push(s), () => clock, () => shown);
    // Esc while idle starts no timing.
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r' }));
    clock = 1500;
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    vi.advanceTimersToNextFrame(); // not shown yet: keep watching
    clock = 1503.25;
    shown = true;
    document.body.append(document.createElement('span')); // the commit
    await Promise.resolve();
    clock = 1510;
    vi.advanceTimersToNextFrame(); // the frame that renders it
    clock = 1512.5;
    runPostedTasks(); // after its paint: the task posted from its callback
    expect(titles.at(-1)).toBe('bench 0 running 1 -'); // the runtime has not confirmed it yet
    clock = 1520;
    t.emit('agui', ev({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r', outcome: { type: 'cancelled' } }));
    vi.advanceTimersToNextFrame();
    const esc = (performance.timeOrigin + 1500).toFixed(3); // the Esc key on the wall clock
    expect(titles.at(-1)).toBe(`bench 0 cancelled 1 12.50/20.00/3.25/10.00/12.50/${esc}`);
    // A run that ends on its own keeps the last Stop's figure.
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r2' }));
    t.emit('agui', ev({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r2', outcome: { type: 'success' } }));
    vi.advanceTimersToNextFrame();
    expect(titles.at(-1)).toBe(`bench 0 done 2 12.50/20.00/3.25/10.00/12.50/${esc}`);
    stop();
  });

  // A Stop pressed twice times the first; a run that ends otherwise, or the
  // counter stopped, while the Stop waits for its paint or its task leaves
  // nothing behind: no task, no frame callback, no figure.
  it('leaves no task or frame behind when a Stop is dropped mid-measure, and times a double Esc once', () => {
    const t = new FakeTransport();
    const titles: string[] = [];
    let clock = 1000;
    let shown = false;
    const stop = startBenchTitle(t, (s) => titles.push(s), () => clock, () => shown);
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r' }));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    clock = 1003;
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' })); // pressed again
    shown = true;
    clock = 1008;
    vi.advanceTimersToNextFrame(); // the frame that renders it: a task and a frame callback wait
    expect(posted.size).toBe(1);
    t.emit('agui', ev({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r', outcome: { type: 'success' } })); // ended otherwise
    expect(posted.size).toBe(0);
    vi.advanceTimersToNextFrame();
    expect(vi.getTimerCount()).toBe(0);
    expect(titles.at(-1)).toBe('bench 0 done 1 -');
    // A second run, Stopped; the counter stopped while the task waits.
    shown = false;
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r2' }));
    vi.advanceTimersToNextFrame();
    clock = 2000;
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    shown = true;
    clock = 2010;
    vi.advanceTimersToNextFrame();
    t.emit('agui', ev({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r2', outcome: { type: 'cancelled' } }));
    clock = 2020;
    vi.advanceTimersToNextFrame(); // the next frame: painted, the task still out
    clock = 2030;
    runPostedTasks();
    vi.advanceTimersToNextFrame();
    const esc = (performance.timeOrigin + 2000).toFixed(3);
    expect(titles.at(-1)).toBe(`bench 0 cancelled 2 20.00/10.00/10.00/10.00/30.00/${esc}`);
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r3' }));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    shown = true;
    vi.advanceTimersToNextFrame();
    stop();
    expect(posted.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  // A page busy with the stream's event tasks runs the posted task late; the
  // next frame's callback also comes only after the painted frame, so the
  // first of the two is when the person saw it at the latest.
  it('takes the next frame as the paint when it comes before the posted task', () => {
    const t = new FakeTransport();
    const titles: string[] = [];
    let clock = 1000;
    let shown = false;
    const stop = startBenchTitle(t, (s) => titles.push(s), () => clock, () => shown);
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r' }));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    shown = true;
    clock = 1004;
    vi.advanceTimersToNextFrame(); // the frame that renders it
    clock = 1020;
    vi.advanceTimersToNextFrame(); // the next frame, before the posted task ran
    clock = 1090;
    runPostedTasks(); // the posted task, late
    t.emit('agui', ev({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r', outcome: { type: 'cancelled' } }));
    vi.advanceTimersToNextFrame();
    const esc = (performance.timeOrigin + 1000).toFixed(3);
    expect(titles.at(-1)).toBe(`bench 0 cancelled 1 20.00/90.00/4.00/4.00/90.00/${esc}`);
    stop();
  });
});

describe('the Stop button field', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] }));
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('gives the Stop button\'s rectangle (whole pixels covering it) once a run shows it, read once per run', () => {
    document.body.innerHTML = '<form class="composer"><button class="composer-btn stop">Stop</button></form>';
    const b = document.querySelector('button')!;
    const reads = vi.fn(() => ({ left: 100.4, top: 500.6, right: 132.2, bottom: 532.9, width: 31.8, height: 32.3 }) as DOMRect);
    b.getBoundingClientRect = reads;
    const t = new FakeTransport();
    const titles: string[] = [];
    const stop = startBenchTitle(t, (s) => titles.push(s));
    expect(titles.at(-1)).toBe('bench 0 idle 0 -'); // no run: no field
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r' }));
    vi.advanceTimersToNextFrame();
    expect(titles.at(-1)).toBe('bench 0 running 1 - btn=100,500,33,33');
    t.emit('agui', ev({ type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' }));
    t.emit('agui', ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'abc' }));
    vi.advanceTimersToNextFrame();
    expect(titles.at(-1)).toBe('bench 3 running 1 - btn=100,500,33,33');
    expect(reads).toHaveBeenCalledTimes(1); // no layout read in each streamed frame
    // The next run reads it again (the window may have been resized).
    reads.mockReturnValue({ left: 10, top: 20, right: 40, bottom: 50, width: 30, height: 30 } as DOMRect);
    t.emit('agui', ev({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r', outcome: { type: 'success' } }));
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r2' }));
    vi.advanceTimersToNextFrame();
    expect(titles.at(-1)).toBe('bench 3 running 2 - btn=10,20,30,30');
    stop();
  });

  it('has no field while no Stop button shows', () => {
    document.body.innerHTML = '<form class="composer"><button class="composer-btn send">Send</button></form>';
    const t = new FakeTransport();
    const titles: string[] = [];
    const stop = startBenchTitle(t, (s) => titles.push(s));
    t.emit('agui', ev({ type: 'RUN_STARTED', threadId: 'th', runId: 'r' }));
    vi.advanceTimersToNextFrame();
    expect(titles.at(-1)).toBe('bench 0 running 1 -');
    stop();
  });
});

describe('the start-up field', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] }));
  afterEach(() => vi.useRealTimers());

  it('says when the composer took its first key, in epoch ms, after a view field', () => {
    const t = new FakeTransport();
    const titles: string[] = [];
    const stop = startBenchTitle(t, (s) => titles.push(s));
    const section = document.createElement('section');
    section.className = 'composer';
    const box = document.createElement('textarea');
    section.append(box);
    document.body.append(section);
    const other = document.createElement('textarea');
    document.body.append(other);
    other.dispatchEvent(new Event('input', { bubbles: true })); // not the composer
    vi.advanceTimersToNextFrame();
    expect(titles.at(-1)).toBe('bench 0 idle 0 -');
    const before = Date.now();
    box.dispatchEvent(new Event('input', { bubbles: true }));
    vi.advanceTimersToNextFrame();
    const f = titles.at(-1)!.split(' ');
    expect(f.slice(0, 6)).toEqual(['bench', '0', 'idle', '0', '-', '-']);
    expect(Math.abs(Number(f[6]) - before)).toBeLessThan(1000);
    stop();
    section.remove();
    other.remove();
  });
});

describe('viewCheck', () => {
  const page = (text: string) => {
    const d = document.createElement('div');
    d.innerHTML = `<article aria-label="Juncture said">old w009</article><article aria-label="Juncture said">${text}</article>`;
    return d;
  };
  it.each([
    ['w001 w002 w003', 'w3'],
    ['w001 w002 w004', 'HOLE3'],
    ['w001 w002 w002 w003', 'HOLE3'],
    ['no numbers', ''],
  ])('%s → %s', (text, want) => {
    expect(viewCheck(page(text))).toBe(want);
  });
});
