import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstComposerInput, markStartup, resetStartupMarks, startupMarks, watchComposer } from './startupMarks';
import { startBenchTitle } from './benchTitle';
import { FakeTransport } from '../test/fakeTransport';

function composer() {
  const section = document.createElement('section');
  section.className = 'composer';
  const box = document.createElement('textarea');
  section.append(box);
  document.body.append(section);
  return { box, remove: () => section.remove() };
}

describe('startupMarks', () => {
  beforeEach(() => {
    resetStartupMarks();
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] });
  });
  afterEach(() => vi.useRealTimers());

  it('keeps the first time of each stage, in the order reached', () => {
    markStartup('main', 10.4);
    markStartup('app', 30);
    markStartup('main', 50); // again: the first one stays
    const m = startupMarks().split(',');
    expect(m[0]).toMatch(/^t0=\d+$/);
    expect(m.slice(1)).toEqual(['main=10', 'app=30']);
  });

  it('notes the composer’s first key, not another box’s, and its focus', () => {
    const other = document.createElement('textarea');
    document.body.append(other);
    const c = composer();
    watchComposer(document);
    other.dispatchEvent(new Event('input', { bubbles: true }));
    expect(firstComposerInput()).toBe(0);
    c.box.focus();
    const before = Date.now();
    c.box.dispatchEvent(new Event('input', { bubbles: true }));
    const first = firstComposerInput();
    expect(Math.abs(first - before)).toBeLessThan(1000);
    c.box.dispatchEvent(new Event('input', { bubbles: true })); // a later key changes nothing
    expect(firstComposerInput()).toBe(first);
    expect(startupMarks()).toMatch(/,focus=\d+,input=\d+$/);
    c.remove();
    other.remove();
  });

  // Regression (issue 26, start-up): the bench counter starts only once
  // Status answered, and counted a composer that took keys before that late.
  it('a key the composer took before the bench counter started counts when it was taken', () => {
    const c = composer();
    watchComposer(document);
    c.box.dispatchEvent(new Event('input', { bubbles: true }));
    const taken = firstComposerInput();
    expect(taken).toBeGreaterThan(0);
    const titles: string[] = [];
    const stop = startBenchTitle(new FakeTransport(), (s) => titles.push(s));
    const f = titles.at(-1)!.split(' ');
    expect(f.slice(0, 7)).toEqual(['bench', '0', 'idle', '0', '-', '-', String(taken)]);
    expect(f[7]).toMatch(/^t0=\d+,.*input=\d+/);
    stop();
    c.remove();
  });
});
