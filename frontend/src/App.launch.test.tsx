import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/preact';
import { App } from './App';
import { TransportContext } from './transport';
import { FakeTransport } from './test/fakeTransport';
import { bigThreadView, settingsView, threadResponders } from './test/builders';
import type { Status } from './transport/contract';
import { drafts } from './lib/drafts';
import { change } from './test/change';

const STATUS: Status = { mode: 'desktop', configured: true, endpoint: 'http://127.0.0.1:11434/v1', model: 'llama3.1' };

// Issue 26 (start-up): the composer takes keys as soon as the window shows,
// before the juncture:// link's chat is known; those keys are not lost when
// that chat opens.
describe('App at launch', () => {
  afterEach(() => {
    drafts.clear('new');
    drafts.clear('th-long');
  });

  it('keys typed before the launch link’s chat opened arrive in that chat’s composer', async () => {
    let launch: (id: string) => void = () => {};
    const view = bigThreadView('th-long', 2000);
    const t = new FakeTransport({
      Status: () => STATUS,
      GetSettings: () => settingsView({}, { baseUrl: 'environment', model: 'saved', loopGuard: 'default' }),
      ...threadResponders({ 'th-long': view }),
      TakeLaunchThread: () => new Promise<string>((r) => (launch = r)),
    });
    render(
      <TransportContext.Provider value={t}>
        <App />
      </TransportContext.Provider>,
    );
    const box = screen.getByLabelText('Message');
    await waitFor(() => expect(document.activeElement).toBe(box)); // focused at once: it takes keys
    change(box, { target: { value: 'xx' } });
    await act(async () => launch('th-long'));
    await waitFor(() => expect(t.callsOf('GetThread')).toEqual([['th-long']]));
    await waitFor(() => expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('xx'));
    expect(drafts.get('new')).toBe(''); // the new-chat screen's draft is as it was
  });

  it('a link that arrives later (a second launch) carries nothing', async () => {
    const view = bigThreadView('th-long', 3);
    let n = 0;
    const t = new FakeTransport({
      Status: () => STATUS,
      GetSettings: () => settingsView({}, { baseUrl: 'environment', model: 'saved', loopGuard: 'default' }),
      ...threadResponders({ 'th-long': view }),
      TakeLaunchThread: () => (n++ === 0 ? '' : 'th-long'),
    });
    const listeners: (() => void)[] = [];
    window.runtime = { ...(window.runtime ?? {}), EventsOn: (_: string, f: () => void) => (listeners.push(f), () => {}) } as typeof window.runtime;
    render(
      <TransportContext.Provider value={t}>
        <App />
      </TransportContext.Provider>,
    );
    await waitFor(() => expect(t.callsOf('TakeLaunchThread')).toHaveLength(1));
    const box = screen.getByLabelText('Message');
    change(box, { target: { value: 'for a new chat' } });
    await act(async () => listeners.forEach((f) => f()));
    await waitFor(() => expect(t.callsOf('GetThread')).toEqual([['th-long']]));
    await waitFor(() => expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe(''));
    expect(drafts.get('new')).toBe('for a new chat');
    delete (window.runtime as { EventsOn?: unknown } | undefined)?.EventsOn;
  });
});
