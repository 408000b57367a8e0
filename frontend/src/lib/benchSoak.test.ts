import { afterEach, describe, expect, it, vi } from 'vitest';
import { startBenchSoak, type SoakBinding } from './benchSoak';
import { FakeTransport } from '../test/fakeTransport';
import type { EventMap } from '../transport/events';

const ev = (event: Record<string, unknown>) => ({ threadId: 'th', event }) as unknown as EventMap['agui'];

// A composer as the page renders it (Composer.tsx's classes), and a sidebar with its New chat button.
function page(onSend: (text: string) => void) {
  document.body.innerHTML = `
    <nav class="sidebar"><button class="sidebar-new">New chat</button></nav>
    <section class="composer"><input type="file" /><textarea></textarea><button class="composer-btn send">Send</button></section>`;
  const ta = document.querySelector('textarea') as HTMLTextAreaElement;
  let text = '';
  ta.addEventListener('input', () => (text = ta.value));
  document.querySelector('.send')?.addEventListener('click', () => onSend(text));
}

// The page, with each message sent answered at once by a run that ends in success.
function answeredPage(): { t: FakeTransport; sent: string[] } {
  const t = new FakeTransport();
  const sent: string[] = [];
  page((text) => {
    sent.push(text);
    queueMicrotask(() => t.emit('agui', ev({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r', outcome: { type: 'success' } })));
  });
  return { t, sent };
}

describe('startBenchSoak', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('does nothing without the soak binding', () => {
    const t = new FakeTransport();
    const stop = startBenchSoak(t, undefined, 0);
    stop();
  });

  it('types each turn into the composer, clicks Send, and reports the turn once its run ended', async () => {
    const { t, sent } = answeredPage();
    let next = 0;
    const steps: [number, string][] = [];
    const soak: SoakBinding = {
      Step: vi.fn(async (finished: number, note: string) => {
        steps.push([finished, note]);
        if (finished >= 0) next = finished + 1;
        return { turn: next, total: 1 };
      }),
    };
    const stop = startBenchSoak(t, soak, 0);
    await vi.waitFor(() => expect(steps).toHaveLength(2));
    stop();
    expect(sent).toEqual(['hello, turn 0']);
    expect(steps).toEqual([[-1, ''], [0, '']]);
  });

  // The Go side says how often to reload (JUNCTURE_BENCH_SOAK_RELOAD): 0 never, so a soak can show what
  // WebKit keeps when nothing throws the page away; a binding that does not say keeps every 25 turns.
  it.each([
    { reloadEvery: 2, played: 2, reloads: 1 },
    { reloadEvery: 0, played: 3, reloads: 0 },
    { reloadEvery: undefined, played: 3, reloads: 0 },
  ])('reloads after every $reloadEvery-th turn', async ({ reloadEvery, played, reloads }) => {
    const { t, sent } = answeredPage();
    const reload = vi.fn();
    (window as unknown as { runtime?: unknown }).runtime = { WindowReload: reload };
    let next = 0;
    const steps: number[] = [];
    const soak: SoakBinding = {
      Step: vi.fn(async (finished: number) => {
        steps.push(finished);
        if (finished >= 0) next = finished + 1;
        return { turn: next, total: 3, reloadEvery };
      }),
      Page: vi.fn(async () => {}),
    };
    const stop = startBenchSoak(t, soak, 0);
    await vi.waitFor(() => expect(steps).toHaveLength(played + 1), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 50));
    stop();
    delete (window as unknown as { runtime?: unknown }).runtime;
    expect(sent).toHaveLength(played);
    expect(reload).toHaveBeenCalledTimes(reloads);
  });
  // JUNCTURE_BENCH_SOAK_KINDS: only the kinds of turn the Go side names, in a cycle.
  it('plays only the kinds of turn the Go side names', async () => {
    const { t, sent } = answeredPage();
    let next = 0;
    const soak: SoakBinding = {
      Step: vi.fn(async (finished: number) => {
        if (finished >= 0) next = finished + 1;
        return { turn: next, total: 3, reloadEvery: 0, kinds: [5, 4] };
      }),
      Page: vi.fn(async () => {}),
    };
    const stop = startBenchSoak(t, soak, 0);
    await vi.waitFor(() => expect(sent).toHaveLength(3), { timeout: 5000 });
    stop();
    expect(sent).toEqual(['think about it, turn 0', 'list files', 'think about it, turn 2']);
  });
});

describe('pageFacts', () => {
  it('counts the elements, chats, messages and frames the page holds', async () => {
    const { pageFacts } = await import('./benchSoak');
    document.body.innerHTML = `
      <nav class="sidebar"><div class="titem"></div><div class="titem"></div></nav>
      <article data-message-id="m1"></article><article data-message-id="m2"></article><article data-message-id="m3"></article>
      <iframe></iframe>`;
    const facts = pageFacts();
    expect(facts).toMatch(/^dom=\d+ titems=2 msgs=3 iframes=1( jsheap_kib=\d+)?$/);
    expect(Number(/dom=(\d+)/.exec(facts)?.[1])).toBeGreaterThanOrEqual(7);
    document.body.innerHTML = '';
  });
});
