import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { useState } from 'react';
import { EmptyState, SUGGESTIONS } from './EmptyState';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import type { Status } from '../../transport/contract';

const STATUS: Status = { mode: 'browser', configured: true, endpoint: 'http://x/v1', model: 'm' };

function ComposerStub() {
  const [text, setText] = useState('');
  return (
    <section className="composer">
      <textarea aria-label="Message" value={text} onChange={(e) => setText(e.currentTarget.value)} />
      <output data-testid="state">{text}</output>
    </section>
  );
}

function setup(status: Status, workspace = '/home/ada/ws') {
  const t = new FakeTransport({
    GetSettings: () => ({
      settings: { baseUrl: '', apiKey: '', model: '', workspace, loopGuard: 25, theme: 'system', enableWriteTools: true, modelAcceptsImages: false },
      sources: {},
    }),
  });
  const onOpenSettings = vi.fn();
  render(
    <TransportContext.Provider value={t}>
      <EmptyState status={status} onOpenSettings={onOpenSettings} />
      <ComposerStub />
    </TransportContext.Provider>,
  );
  return { t, onOpenSettings };
}

describe('EmptyState', () => {
  it('offers suggestions that fill the composer (not sent), and shows the workspace', async () => {
    setup(STATUS);
    expect(screen.getByRole('heading', { name: 'How can I help?' })).toBeTruthy();
    expect(await screen.findByText('/home/ada/ws')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: SUGGESTIONS[0]!.label }));
    expect(screen.getByTestId('state').textContent).toBe(SUGGESTIONS[0]!.text);
    const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
    expect(document.activeElement).toBe(box);
    expect(box.selectionStart).toBe(SUGGESTIONS[0]!.text.length);
  });

  it('names the default workspace when none is set', async () => {
    setup(STATUS, '');
    expect(await screen.findByText('the Juncture folder in your Documents (the default)')).toBeTruthy();
  });

  it('with no model configured, says what to set up and opens Settings instead of "How can I help?"', () => {
    const { onOpenSettings } = setup({ ...STATUS, configured: false, problem: 'No model endpoint is configured.' });
    expect(screen.queryByRole('heading', { name: 'How can I help?' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Connect a model to start' })).toBeTruthy();
    expect(screen.getByText('No model endpoint is configured.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Suggestions' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open Settings' }));
    expect(onOpenSettings).toHaveBeenCalledTimes(1);
  });
});
