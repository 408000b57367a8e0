import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { AppView, callFromView, noteLiveCall, resetAppViews } from './AppView';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import type { ToolCallView } from '../../state/types';
import type { AppViewOpen } from '../../transport/contract.gen';

const opened: AppViewOpen = {
  url: '/appview/abc',
  server: 'srv',
  uri: 'ui://srv/view',
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: false,
  dropped: [],
};

const tool: ToolCallView = { id: 'call-1', name: 'srv__show', args: '{"a":1}', argsComplete: true, messageId: 'm', state: 'done', result: 'shown' };
const part = { kind: 'app' as const, uri: 'ui://srv/view', name: 'srv' };

function setup(transport = new FakeTransport({ OpenAppView: () => opened })) {
  render(
    <TransportContext.Provider value={transport}>
      <AppView threadId="th" tool={tool} part={part} />
    </TransportContext.Provider>,
  );
  return transport;
}

afterEach(() => resetAppViews());

describe('AppView', () => {
  it('is inert (no frame, nothing read) until clicked when the call is not live', async () => {
    const t = setup();
    expect(document.querySelector('iframe')).toBeNull();
    expect(t.callsOf('OpenAppView')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: /Interactive view · srv/ }));
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    const f = document.querySelector('iframe')!;
    expect(f.getAttribute('sandbox')).toBe('allow-scripts');
    expect(f.getAttribute('src')).toBe('/appview/abc');
    expect(t.callsOf('OpenAppView')).toEqual([['th', 'call-1']]);
  });

  it('hears only its own frame: a message from another source gets no answer', async () => {
    noteLiveCall('call-1');
    setup();
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    await act(async () => {}); // the host's listener is a passive effect: let it run
    const frame = document.querySelector('iframe')!.contentWindow!;
    const post = vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    const init = { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} };
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data: init, source: window }));
      window.dispatchEvent(new MessageEvent('message', { data: init }));
    });
    expect(post).not.toHaveBeenCalled();
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data: init, source: frame }));
    });
    expect(post).toHaveBeenCalledTimes(1);
    expect(post.mock.calls[0]![0]).toMatchObject({ id: 1, result: { hostContext: { theme: 'light' } } });
    expect(post.mock.calls[0]![1]).toBe('*');
  });

  it('stops the view when its frame loads a second page', async () => {
    noteLiveCall('call-1');
    setup();
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    const f = document.querySelector('iframe')!;
    fireEvent.load(f);
    expect(document.querySelector('iframe')).not.toBeNull();
    fireEvent.load(f);
    expect(await screen.findByText('The view tried to load another page and was stopped.')).toBeTruthy();
    expect(document.querySelector('iframe')).toBeNull();
  });

  // "Open larger" puts the frame's dialog in the top layer as a modal: out of
  // the message row, whose transform and containment held the old position:
  // fixed box to the row (a 20 px frame under a backdrop the size of the
  // row). The e2e test (e2e/mcp-apps.test.mjs) measures it in chromium.
  it('opens larger as a modal dialog around the same frame, and back by the button or Esc', async () => {
    // (hidden: true — jsdom has no AppView.css: its closed dialog shows nothing)
    noteLiveCall('call-1');
    setup();
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    const frame = document.querySelector('iframe')!;
    const dialog = document.querySelector('dialog.app-view-frame-wrap') as HTMLDialogElement;
    expect(dialog.contains(frame)).toBe(true);
    expect(dialog.open).toBe(false); // inline: a closed dialog shown by its CSS
    fireEvent.click(screen.getByRole('button', { name: 'Open larger', hidden: true }));
    await waitFor(() => expect(dialog.open).toBe(true));
    expect(dialog.getAttribute('aria-label')).toBe('View from srv, larger');
    expect(document.querySelector('iframe')).toBe(frame); // not remade: the view is not reloaded
    fireEvent.click(screen.getByRole('button', { name: 'Back to the chat', hidden: true }));
    await waitFor(() => expect(dialog.open).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Open larger', hidden: true }));
    await waitFor(() => expect(dialog.open).toBe(true));
    const cancel = new Event('cancel', { cancelable: true });
    act(() => {
      dialog.dispatchEvent(cancel);
    });
    expect(cancel.defaultPrevented).toBe(true); // React's state closes it, not the browser
    await waitFor(() => expect(dialog.open).toBe(false));
    expect(screen.getByRole('button', { name: 'Open larger', hidden: true }).getAttribute('aria-pressed')).toBe('false');
    expect(document.querySelector('iframe')).toBe(frame);
  });

  // A click's target is the nearest box holding both its press and its
  // release: a drag that starts in the larger view (selecting the bar's
  // text) and is let go over the backdrop "clicks" the dialog outside its
  // box, as a click on the backdrop does. Only a press on the backdrop goes back.
  it('goes back on a click on the backdrop, not on a drag from inside that ends there', async () => {
    noteLiveCall('call-1');
    setup();
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    const dialog = document.querySelector('dialog.app-view-frame-wrap') as HTMLDialogElement;
    vi.spyOn(dialog, 'getBoundingClientRect').mockReturnValue(new DOMRect(50, 50, 500, 400));
    fireEvent.click(screen.getByRole('button', { name: 'Open larger', hidden: true }));
    await waitFor(() => expect(dialog.open).toBe(true));
    const label = dialog.querySelector('.app-view-label')!;
    fireEvent.mouseDown(label, { clientX: 60, clientY: 60 });
    fireEvent.mouseUp(dialog, { clientX: 10, clientY: 10 });
    fireEvent.click(dialog, { clientX: 10, clientY: 10 });
    await act(async () => {});
    expect(dialog.open).toBe(true);
    // A press on the dialog's own padding, let go on the backdrop: not a backdrop click either.
    fireEvent.mouseDown(dialog, { clientX: 55, clientY: 55 });
    fireEvent.mouseUp(dialog, { clientX: 10, clientY: 10 });
    fireEvent.click(dialog, { clientX: 10, clientY: 10 });
    await act(async () => {});
    expect(dialog.open).toBe(true);
    // A click on the dialog's padding stays.
    fireEvent.mouseDown(dialog, { clientX: 55, clientY: 55 });
    fireEvent.click(dialog, { clientX: 55, clientY: 55 });
    await act(async () => {});
    expect(dialog.open).toBe(true);
    fireEvent.mouseDown(dialog, { clientX: 10, clientY: 10 });
    fireEvent.mouseUp(dialog, { clientX: 10, clientY: 10 });
    fireEvent.click(dialog, { clientX: 10, clientY: 10 });
    await waitFor(() => expect(dialog.open).toBe(false));
  });

  // Stop (from the larger view or inline) takes the view's buttons away: the
  // focus lands on the button that loads it again, not on the page body
  // (where it is lost to a keyboard, and Esc would stop the run).
  it('keeps the focus on the view when Stop is pressed while larger', async () => {
    noteLiveCall('call-1');
    setup();
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    const dialog = document.querySelector('dialog.app-view-frame-wrap') as HTMLDialogElement;
    fireEvent.click(screen.getByRole('button', { name: 'Open larger', hidden: true }));
    await waitFor(() => expect(dialog.open).toBe(true));
    const stopButton = screen.getByRole('button', { name: 'Stop', hidden: true });
    stopButton.focus();
    fireEvent.click(stopButton);
    const again = await screen.findByRole('button', { name: /View stopped · srv/ });
    await waitFor(() => expect(document.activeElement).toBe(again));
  });

  it('comes back into the chat when a call from the large view waits for an approval', async () => {
    noteLiveCall('call-1');
    const t = setup(new FakeTransport({ OpenAppView: () => opened, CallToolFromView: () => 'view-1' }));
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    await act(async () => {});
    const frame = document.querySelector('iframe')!.contentWindow!;
    vi.spyOn(frame, 'postMessage').mockImplementation(() => {});
    const dialog = document.querySelector('dialog.app-view-frame-wrap') as HTMLDialogElement;
    fireEvent.click(screen.getByRole('button', { name: 'Open larger', hidden: true }));
    await waitFor(() => expect(dialog.open).toBe(true));
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data: { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} }, source: frame }));
      window.dispatchEvent(new MessageEvent('message', { data: { jsonrpc: '2.0', method: 'ui/notifications/initialized' }, source: frame }));
      window.dispatchEvent(new MessageEvent('message', { data: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'stamp', arguments: {} } }, source: frame }));
    });
    await waitFor(() => expect(t.callsOf('CallToolFromView')).toHaveLength(1));
    act(() => {
      t.emit('agui', { threadId: 'th', event: { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: 'view-1', state: 'running' } } } as never);
    });
    expect(dialog.open).toBe(true); // a call that runs by itself leaves the view large
    act(() => {
      t.emit('agui', { threadId: 'th', event: { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: 'view-1', state: 'awaiting-approval' } } } as never);
    });
    await waitFor(() => expect(dialog.open).toBe(false));
    expect(screen.getByText(/The view asked to call stamp/)).toBeTruthy();
  });
});

describe('callFromView', () => {
  it('starts the call through CallToolFromView and answers with its result from the stream', async () => {
    const t = new FakeTransport({ CallToolFromView: () => 'view-1' });
    const p = callFromView(t, 'th', 'call-1', 'stamp', { note: 'x' });
    await waitFor(() => expect(t.callsOf('CallToolFromView')).toHaveLength(1));
    expect(t.callsOf('CallToolFromView')[0]).toEqual([{ threadId: 'th', parentCallId: 'call-1', tool: 'stamp', arguments: { note: 'x' } }]);
    t.emit('agui', { threadId: 'other', event: { type: 'TOOL_CALL_RESULT', messageId: 'x', toolCallId: 'view-1', content: 'not this thread' } } as never);
    t.emit('agui', { threadId: 'th', event: { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: 'view-1', state: 'done', parts: [{ kind: 'structured', json: { ok: true } }] } } } as never);
    t.emit('agui', { threadId: 'th', event: { type: 'TOOL_CALL_RESULT', messageId: 'x', toolCallId: 'view-1', content: 'stamped' } } as never);
    await expect(p).resolves.toEqual({ content: [{ type: 'text', text: 'stamped' }], structuredContent: { ok: true } });
  });

  it("tells each state the call reaches, once, and only its own call's", async () => {
    const t = new FakeTransport({ CallToolFromView: () => 'view-1' });
    const states: string[] = [];
    const state = (id: string, st: string) =>
      t.emit('agui', { threadId: 'th', event: { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: id, state: st } } } as never);
    const p = callFromView(t, 'th', 'call-1', 'stamp', {}, (s) => states.push(s));
    // A state that arrives before the call's id is known is told when it is.
    state('view-1', 'awaiting-approval');
    expect(states).toEqual([]);
    await waitFor(() => expect(states).toEqual(['awaiting-approval']));
    state('view-1', 'awaiting-approval');
    state('view-2', 'running');
    state('view-1', 'running');
    state('view-1', 'done');
    t.emit('agui', { threadId: 'th', event: { type: 'TOOL_CALL_RESULT', messageId: 'x', toolCallId: 'view-1', content: 'ok' } } as never);
    await expect(p).resolves.toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(states).toEqual(['awaiting-approval', 'running', 'done']);
  });

  it('passes a refusal on', async () => {
    const t = new FakeTransport({ CallToolFromView: () => Promise.reject(new Error('answer what waits in this chat first')) });
    await expect(callFromView(t, 'th', 'call-1', 'stamp', {})).rejects.toThrow(/answer what waits/);
  });
});
