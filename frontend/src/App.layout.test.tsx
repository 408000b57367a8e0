// The window's layout: per-chat composer drafts, the collapsible sidebar
// (and its overlay in narrow windows). The visible side (what a person
// sees and the Tab order) is in e2e/window-layout.test.mjs.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { App } from './App';
import { TransportContext } from './transport';
import { FakeTransport } from './test/fakeTransport';
import { emptyView, thread, threadResponders } from './test/builders';
import type { Status, ThreadView } from './transport/contract';
import { JunctureError } from './transport/errors';
import { DRAFT_PREFIX, drafts } from './lib/drafts';
import { NARROW_QUERY, SIDEBAR_KEY } from './hooks/useSidebarLayout';
import { change } from './test/change';

const STATUS: Status = { mode: 'desktop', configured: true, endpoint: 'http://127.0.0.1:11434/v1', model: 'llama3.1' };

function setup(views: Record<string, ThreadView>) {
  const t = new FakeTransport({
    Status: () => STATUS,
    GetSettings: () => {
      throw new JunctureError('not-implemented', 'no settings here');
    },
    ...threadResponders(views),
    SendInput: (threadId) => ({ threadId, queued: false }),
    Interrupt: () => null,
    NewThread: () => thread('new-1', ''),
    SearchHistory: () => [],
  });
  const r = render(
    <TransportContext.Provider value={t}>
      <App />
    </TransportContext.Provider>,
  );
  return { ...r, t };
}

const composer = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });

async function openThread(title: string) {
  const item = await screen.findByRole('button', { name: title });
  await act(async () => {
    fireEvent.click(item);
  });
}

/** matchMedia for a window `width` px wide (jsdom has none). */
function windowWidth(width: number) {
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (q: string) => ({
    media: q,
    matches: q === NARROW_QUERY ? width <= 800 : false,
    addEventListener: (_: string, f: () => void) => listeners.add(f),
    removeEventListener: (_: string, f: () => void) => listeners.delete(f),
  }));
}

const two = () => ({ 'th-1': emptyView(thread('th-1', 'Rivers')), 'th-2': emptyView(thread('th-2', 'Lakes')) });

describe('composer drafts', () => {
  afterEach(() => {
    drafts.flush();
    window.localStorage.clear();
    for (const k of ['th-1', 'th-2', 'new', 'new-1']) drafts.clear(k);
  });

  it('each chat and the new-chat screen keep their own draft while switching', async () => {
    setup(two());
    await screen.findByRole('button', { name: 'Rivers' });
    change(composer(), { target: { value: 'a question for a new chat' } });
    await openThread('Rivers');
    expect(composer().value).toBe('');
    change(composer(), { target: { value: 'about rivers' } });
    await openThread('Lakes');
    expect(composer().value).toBe('');
    change(composer(), { target: { value: 'about lakes' } });
    await openThread('Rivers');
    expect(composer().value).toBe('about rivers');
    await openThread('Lakes');
    expect(composer().value).toBe('about lakes');
    fireEvent.click(screen.getByTitle(/^New chat \(/));
    expect(composer().value).toBe('a question for a new chat');
  });

  it('a draft survives a reload (stored by thread id) and is dropped when sent', async () => {
    const first = setup(two());
    await openThread('Rivers');
    change(composer(), { target: { value: 'unsent\nsecond line' } });
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(JSON.parse(window.localStorage.getItem(`${DRAFT_PREFIX}th-1`)!).t).toBe('unsent\nsecond line');
    first.unmount();

    // The same window after a reload: the open chat and its draft come back.
    window.sessionStorage.setItem('juncture.openThread', 'th-1');
    const { t } = setup(two());
    await waitFor(() => expect(composer().value).toBe('unsent\nsecond line'));
    await act(async () => {
      fireEvent.keyDown(composer(), { key: 'Enter' });
    });
    expect(t.callsOf('SendInput')).toEqual([['th-1', 'unsent\nsecond line']]);
    expect(composer().value).toBe('');
    expect(window.localStorage.getItem(`${DRAFT_PREFIX}th-1`)).toBeNull();
    await openThread('Lakes');
    await openThread('Rivers');
    expect(composer().value).toBe('');
  });

  it('a new chat’s draft is dropped once it becomes the first message', async () => {
    const { t } = setup(two());
    await screen.findByRole('button', { name: 'Rivers' });
    change(composer(), { target: { value: 'start something' } });
    await act(async () => {
      fireEvent.keyDown(composer(), { key: 'Enter' });
    });
    expect(t.callsOf('SendInput')).toEqual([['new-1', 'start something']]);
    fireEvent.click(screen.getByTitle(/^New chat \(/));
    expect(composer().value).toBe('');
    drafts.flush();
    expect(window.localStorage.getItem(`${DRAFT_PREFIX}new`)).toBeNull();
  });
});

describe('collapsible sidebar', () => {
  beforeEach(() => {
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    window.localStorage.clear();
  });

  const aside = () => document.getElementById('sidebar')!;

  it('collapses with its button and with Ctrl+B, and a new window remembers it', async () => {
    windowWidth(1280);
    const first = setup(two());
    await screen.findByRole('button', { name: 'Rivers' });
    expect(aside().className).toContain('is-docked');
    fireEvent.click(screen.getByRole('button', { name: 'Hide sidebar' }));
    expect(aside().className).toContain('is-hidden');
    expect(aside().hasAttribute('inert')).toBe(true);
    expect(window.localStorage.getItem(SIDEBAR_KEY)).toBe('collapsed');
    // The button keeps focus, now as "Show sidebar".
    expect(screen.getByRole('button', { name: 'Show sidebar' }).getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(composer(), { key: 'b', ctrlKey: true });
    expect(aside().className).toContain('is-docked');
    expect(window.localStorage.getItem(SIDEBAR_KEY)).toBeNull();
    fireEvent.keyDown(document.body, { key: 'b', ctrlKey: true });
    expect(aside().className).toContain('is-hidden');
    first.unmount();

    setup(two());
    expect(aside().className).toContain('is-hidden');
    expect(screen.getByRole('button', { name: 'Show sidebar' })).toBeTruthy();
  });

  it('Ctrl+B with focus inside the sidebar moves focus to the toggle, not to <body>', async () => {
    windowWidth(1280);
    setup(two());
    const row = await screen.findByRole('button', { name: 'Rivers' });
    row.focus();
    fireEvent.keyDown(row, { key: 'b', ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Show sidebar' }));
  });

  it('a narrow window starts collapsed; opened, it overlays the chat until Esc or a chosen chat', async () => {
    window.localStorage.setItem(SIDEBAR_KEY, 'open'); // a wide window's choice does not apply here
    windowWidth(700);
    const { t } = setup(two());
    await waitFor(() => expect(t.callsOf('ListThreads').length).toBeGreaterThan(0));
    expect(document.querySelector('.app')!.className).toContain('is-narrow');
    expect(aside().className).toContain('is-hidden');
    const main = document.querySelector<HTMLElement>('.app-main')!;
    expect(main.hasAttribute('inert')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Show sidebar' }));
    expect(aside().className).toContain('is-overlay');
    expect(main.hasAttribute('inert')).toBe(true); // the chat behind cannot be reached
    expect(document.querySelector('.sidebar-scrim')).not.toBeNull();
    // Esc closes it (and does not reach the Esc that stops a run).
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(aside().className).toContain('is-hidden');
    expect(t.callsOf('Interrupt')).toEqual([]);
    expect(window.localStorage.getItem(SIDEBAR_KEY)).toBe('open');

    // Ctrl+B opens it with focus on a chat; choosing one closes it.
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'b', ctrlKey: true });
      await new Promise((r) => requestAnimationFrame(r));
    });
    expect(aside().className).toContain('is-overlay');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rivers' }));
    await openThread('Lakes');
    expect(aside().className).toContain('is-hidden');
    expect(main.hasAttribute('inert')).toBe(false);

    // A click on the scrim closes it too.
    fireEvent.click(screen.getByRole('button', { name: 'Show sidebar' }));
    fireEvent.click(document.querySelector('.sidebar-scrim')!);
    expect(aside().className).toContain('is-hidden');
  });
});
