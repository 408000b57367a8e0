import type { Transport } from '../transport/types';

/**
 * The soak's driver (scripts/bench-soak.sh; JUNCTURE_BENCH=1 with
 * JUNCTURE_BENCH_SOAK=<turns>, which binds main.BenchSoak). It plays a day's
 * use by clicking the real UI — the composer, the attach button's file
 * input, the approval and question cards, the sidebar's chats — one turn
 * after another, reloading the page every few turns (the binding's
 * reloadEvery, RELOAD_EVERY when it does not say; 0: never). The Go side
 * keeps the count across reloads and samples memory, goroutines, fds and
 * child processes every 10 turns (main_soak.go). Without the binding this
 * does nothing. Returns the function that stops the driver.
 */
export function startBenchSoak(
  transport: Transport,
  soak: SoakBinding | undefined = binding(),
  startDelayMs = START_DELAY_MS,
): () => void {
  if (!soak) return () => {};
  let stopped = false;
  const runEnds: ((outcome: string) => void)[] = [];
  const off = transport.subscribe('agui', ({ event }) => {
    let outcome = '';
    if (event.type === 'RUN_FINISHED') outcome = event.outcome.type;
    else if (event.type === 'RUN_ERROR') outcome = 'error';
    if (outcome) for (const r of runEnds.splice(0)) r(outcome);
  });
  // The next run's end (success, interrupt, cancel or error), or 'timeout'.
  const nextRunEnd = (ms = TURN_TIMEOUT_MS): Promise<string> =>
    new Promise((resolve) => {
      const t = setTimeout(() => resolve('timeout'), ms);
      runEnds.push((o) => {
        clearTimeout(t);
        resolve(o);
      });
    });

  let kinds: readonly number[] | undefined; // the Go side's JUNCTURE_BENCH_SOAK_KINDS
  const play = async (turn: number): Promise<string> => {
    const step: Step = PLAN[kinds?.length ? kinds[turn % kinds.length]! : turn % PLAN.length] ?? { text: 'hello' };
    if (step.before === 'new') await clickNewChat();
    if (step.before === 'switch') await switchChat();
    if (step.attach) await attach(`soak-${turn}.txt`, `Notes from soak turn ${turn}\n`.repeat(20));
    let ended = nextRunEnd();
    const sent = await send(step.text.replace('{n}', String(turn)));
    if (sent) return sent;
    for (let i = 0; i < 4; i++) {
      const outcome = await ended;
      if (outcome !== 'interrupt') return outcome === 'success' ? '' : `run ended: ${outcome}`;
      ended = nextRunEnd();
      const answered = await answerCard();
      if (answered) return answered;
    }
    return 'too many decisions';
  };

  void (async () => {
    await sleep(startDelayMs); // the page's first chat list, MCP status
    let s = await soak.Step(-1, '');
    kinds = s.kinds;
    while (!stopped && s.turn < s.total) {
      const turn = s.turn;
      let note = '';
      try {
        note = await play(turn);
      } catch (e) {
        note = e instanceof Error ? e.message : String(e);
      }
      if (note) await stopIfRunning();
      if (stopped) return;
      // Let the page settle (and WebKit collect) before a sample turn, and
      // say what the page holds for the sample's line.
      if ((turn + 1) % 10 === 0) {
        await sleep(SETTLE_MS);
        await soak.Page?.(pageFacts());
      }
      s = await soak.Step(turn, note);
      const every = s.reloadEvery ?? RELOAD_EVERY;
      if (every > 0 && (turn + 1) % every === 0 && s.turn < s.total) {
        reload();
        return;
      }
    }
  })();

  return () => {
    stopped = true;
    off();
  };
}

/** What main.BenchSoak offers the page (Wails binds it as window.go.main.BenchSoak). */
export interface SoakBinding {
  /** kinds: the plan's kinds of turn to play, in a cycle (JUNCTURE_BENCH_SOAK_KINDS); all when absent. */
  Step(finished: number, note: string): Promise<{ turn: number; total: number; reloadEvery?: number; kinds?: number[] }>;
  Page?(facts: string): Promise<void>;
}

/**
 * What the page holds, for the soak's samples: its elements, the sidebar's
 * chats, the rendered messages and frames, and the JS heap where the engine
 * tells it (Chromium's performance.memory; WebKit does not).
 */
export function pageFacts(): string {
  const count = (sel: string) => document.querySelectorAll(sel).length;
  const mem = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  const facts = [
    `dom=${document.getElementsByTagName('*').length}`,
    `titems=${count('.sidebar .titem')}`,
    `msgs=${count('[data-message-id]')}`,
    `iframes=${count('iframe')}`,
  ];
  if (mem) facts.push(`jsheap_kib=${Math.round(mem.usedJSHeapSize / 1024)}`);
  return facts.join(' ');
}

interface Step {
  text: string;
  before?: 'new' | 'switch';
  attach?: boolean;
}

/** Ten turns, played in a cycle: the demo model's triggers (agent/fakellm/demo.go). */
const PLAN: readonly Step[] = [
  { text: 'hello, turn {n}', before: 'new' },
  { text: 'write a note' }, // write_file: an approval card, Allow once
  { text: '/tool everything__echo {"message":"soak turn {n}"}' }, // an MCP server's read-only tool
  { text: 'what is in the attached file?', attach: true },
  { text: 'list files' },
  { text: 'think about it, turn {n}' },
  { text: 'hello again, turn {n}', before: 'switch' },
  { text: 'ask me something' }, // ask_user: a question card, answered
  { text: 'run `ls -la`' }, // run_command: an approval card, a child process
  { text: 'read notes.txt' },
];

const RELOAD_EVERY = 25;
const TURN_TIMEOUT_MS = 60_000;
const START_DELAY_MS = 2000;
const SETTLE_MS = 1500;

function binding(): SoakBinding | undefined {
  const w = window as unknown as { go?: { main?: { BenchSoak?: SoakBinding } } };
  return w.go?.main?.BenchSoak;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls for what find returns for up to ms. */
async function waitFor<T>(find: () => T | null | undefined, ms = 10_000): Promise<T | null> {
  const end = performance.now() + ms;
  for (;;) {
    const v = find();
    if (v) return v;
    if (performance.now() > end) return null;
    await sleep(50);
  }
}

const composerInput = () => document.querySelector<HTMLTextAreaElement>('.composer textarea');
const sendButton = () => document.querySelector<HTMLButtonElement>('.composer .composer-btn.send');

function buttonNamed(root: ParentNode, text: string): HTMLButtonElement | null {
  for (const b of root.querySelectorAll<HTMLButtonElement>('button')) {
    if (b.textContent?.trim() === text && !b.disabled) return b;
  }
  return null;
}

/** Types text into the composer as an input event the page's onChange sees, and clicks Send; '' when sent. */
async function send(text: string): Promise<string> {
  const input = await waitFor(() => {
    const t = composerInput();
    return t && !t.disabled && sendButton() ? t : null;
  });
  if (!input) return 'no idle composer';
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
  setValue?.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  const btn = await waitFor(() => {
    const b = sendButton();
    return b && !b.disabled ? b : null;
  });
  if (!btn) return 'Send stayed disabled';
  btn.click();
  return '';
}

/** Attaches a text file through the composer's own file input. */
async function attach(name: string, body: string): Promise<void> {
  const input = document.querySelector<HTMLInputElement>('.composer input[type="file"]');
  if (!input) throw new Error('no file input');
  const dt = new DataTransfer();
  dt.items.add(new File([body], name, { type: 'text/plain' }));
  input.files = dt.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await waitFor(() => document.querySelector('.composer')?.textContent?.includes(name));
}

async function clickNewChat(): Promise<void> {
  document.querySelector<HTMLButtonElement>('.sidebar-new')?.click();
  await sleep(300);
}

/** Opens the most recent chat other than the open one, from the sidebar. */
async function switchChat(): Promise<void> {
  const other = document.querySelector<HTMLButtonElement>('.sidebar .titem:not(.is-active) .titem-open');
  if (!other) return;
  other.click();
  await waitFor(() => other.closest('.titem')?.classList.contains('is-active'), 5000);
  await sleep(300);
}

/** Decides the card the run paused on: Allow once, or the first choice submitted. */
async function answerCard(): Promise<string> {
  const card = await waitFor(() => document.querySelector<HTMLElement>('section.interrupts article.icard'));
  if (!card) return 'no decision card';
  const allow = buttonNamed(card, 'Allow once');
  if (allow) {
    allow.click();
    return '';
  }
  card.querySelector<HTMLInputElement>('input[type="radio"]')?.click();
  const submit = await waitFor(() => buttonNamed(card, 'Submit answer'), 3000);
  if (!submit) return 'no Allow once or Submit answer on the card';
  submit.click();
  return '';
}

async function stopIfRunning(): Promise<void> {
  document.querySelector<HTMLButtonElement>('.composer .composer-btn.stop')?.click();
  await waitFor(sendButton, 10_000);
}

function reload(): void {
  const w = window as unknown as { runtime?: { WindowReload?: () => void } };
  if (w.runtime?.WindowReload) w.runtime.WindowReload();
  else window.location.reload();
}
