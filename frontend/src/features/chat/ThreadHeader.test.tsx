import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { ThreadHeader } from './ThreadHeader';
import { FakeTransport } from '../../test/fakeTransport';
import { thread } from '../../test/builders';
import type { Endpoint, ThreadOptions, ThreadOptionsInput } from '../../transport/endpoints';
import { JunctureError } from '../../transport/errors';
import { change } from '../../test/change';

function endpoint(p: Partial<Endpoint> & { id: string }): Endpoint {
  return { name: p.id, baseUrl: `http://127.0.0.1:1/${p.id}`, apiKey: '', models: [], prices: {}, source: 'saved', isDefault: false, defaultModel: '', ...p };
}

const ENDPOINTS = [
  endpoint({ id: 'env', name: 'Environment', source: 'environment', isDefault: true, defaultModel: 'fake-model', models: ['fake-model'] }),
  endpoint({ id: 'ep-2', name: 'Second', models: ['model-x'], defaultModel: 'model-x' }),
];

function setup(options: ThreadOptions = { systemPrompt: '' }, threadId: string | null = 'th-1') {
  let stored: ThreadOptions = { ...options };
  const t = new FakeTransport({
    ListEndpoints: () => ENDPOINTS,
    ListModels: (id) => (id === 'ep-2' ? ['model-x', 'model-y'] : ['fake-model']),
    NewThread: () => thread('th-new', ''),
    SetThreadOptions: (_id: string, o: ThreadOptionsInput) => {
      stored = {
        ...stored,
        ...(o.endpointId !== undefined ? { endpointId: o.endpointId || undefined, model: undefined } : {}),
        ...(o.model !== undefined ? { model: o.model || undefined } : {}),
        ...(o.systemPrompt !== undefined ? { systemPrompt: o.systemPrompt } : {}),
      };
      return stored;
    },
  });
  const onThreadCreated = vi.fn();
  const onChanged = vi.fn();
  const utils = render(
    <ThreadHeader transport={t} threadId={threadId} options={options} onThreadCreated={onThreadCreated} onChanged={onChanged} usageTotal="1,234 tokens · $0.01" />,
  );
  return { t, onThreadCreated, onChanged, ...utils };
}

const modelButton = () => screen.getByRole('button', { name: /^Model:/ });

describe('ThreadHeader', () => {
  it('shows the model the thread runs with, its endpoint, and the usage total', async () => {
    setup();
    await waitFor(() => expect(modelButton().getAttribute('aria-label')).toBe('Model: fake-model Environment. Change the model'));
    expect(screen.getByText('1,234 tokens · $0.01')).toBeTruthy();
    expect(modelButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('switches the thread to another endpoint and model from the picker', async () => {
    const { t, onChanged } = setup();
    await waitFor(() => expect(modelButton().textContent).toContain('fake-model'));
    fireEvent.click(modelButton());
    expect(modelButton().getAttribute('aria-expanded')).toBe('true');
    const input = screen.getByRole('combobox', { name: 'Search models' });
    await waitFor(() => expect(screen.getByRole('option', { name: /model-y/ })).toBeTruthy());
    expect(t.callsOf('ListModels').map((a) => a[0]).sort()).toEqual(['env', 'ep-2']);
    change(input, { target: { value: 'model-y' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(t.callsOf('SetThreadOptions')).toEqual([['th-1', { endpointId: 'ep-2', model: 'model-y' }]]));
    await waitFor(() => expect(modelButton().getAttribute('aria-label')).toBe('Model: model-y Second. Change the model'));
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(onChanged).toHaveBeenCalled();
  });

  it('says when the thread’s endpoint was deleted and it runs with the default', async () => {
    setup({ systemPrompt: '', endpointId: 'endpoint-gone', model: 'old-model' });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Endpoint deleted · using the default'));
    expect(modelButton().getAttribute('aria-label')).toBe('Model: fake-model Environment. Change the model');
  });

  it('edits the instructions: shown, saved through SetThreadOptions, and says when they apply', async () => {
    const { t } = setup({ systemPrompt: 'Answer like a pirate.' });
    const btn = screen.getByRole('button', { name: 'Instructions (set)' });
    fireEvent.click(btn);
    const box = screen.getByRole('textbox', { name: 'Instructions for this chat' }) as HTMLTextAreaElement;
    expect(box.value).toBe('Answer like a pirate.');
    expect(screen.getByText(/Applies from the next answer\. Earlier versions of this chat/)).toBeTruthy();
    change(box, { target: { value: 'Be terse. ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(t.callsOf('SetThreadOptions')).toEqual([['th-1', { systemPrompt: 'Be terse.' }]]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Esc closes without saving.
    fireEvent.click(screen.getByRole('button', { name: 'Instructions (set)' }));
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Instructions for this chat' }), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(t.callsOf('SetThreadOptions')).toHaveLength(1);
  });

  it('keeps the text and says why when saving fails', async () => {
    const { t } = setup();
    t.responders.SetThreadOptions = () => {
      throw new JunctureError('invalid-argument', 'The instructions are too long.');
    };
    fireEvent.click(screen.getByRole('button', { name: 'Instructions' }));
    change(screen.getByRole('textbox', { name: 'Instructions for this chat' }), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Not saved: The instructions are too long.'));
    expect((screen.getByRole('textbox', { name: 'Instructions for this chat' }) as HTMLTextAreaElement).value).toBe('x');
  });

  it('creates the thread when a new chat changes its model first', async () => {
    const { t, onThreadCreated } = setup({ systemPrompt: '' }, null);
    await waitFor(() => expect(modelButton().textContent).toContain('fake-model'));
    fireEvent.click(modelButton());
    await waitFor(() => expect(screen.getByRole('option', { name: /model-x/ })).toBeTruthy());
    await act(async () => {
      fireEvent.click(screen.getByRole('option', { name: /model-x/ }));
    });
    await waitFor(() => expect(t.callsOf('SetThreadOptions')).toEqual([['th-new', { endpointId: 'ep-2', model: 'model-x' }]]));
    expect(t.callsOf('NewThread')).toEqual([['']]);
    expect(onThreadCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 'th-new' }));
  });

  it('closes the picker on a click outside', async () => {
    setup();
    fireEvent.click(modelButton());
    expect(screen.getByRole('dialog', { name: 'Choose a model' })).toBeTruthy();
    fireEvent.mouseDown(document.body);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

// A read-only copy of damaged data: the chat's model and instructions can
// be read, not changed (SetThreadOptions, and NewThread for a new chat,
// would write the copy, which Go refuses).
describe('ThreadHeader in a read-only copy', () => {
  it('shows the model without offering another, and the instructions without saving them', async () => {
    const t = new FakeTransport({ ListEndpoints: () => ENDPOINTS, ListModels: () => ['fake-model'] });
    render(
      <ThreadHeader
        transport={t}
        threadId="th-1"
        options={{ systemPrompt: 'Be brief.' }}
        onThreadCreated={() => {}}
        readOnly
      />,
    );
    const model = await screen.findByRole('button', { name: /^Model: fake-model/ });
    expect((model as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Instructions (set)' }));
    const box = screen.getByRole('textbox', { name: 'Instructions for this chat' }) as HTMLTextAreaElement;
    expect(box.value).toBe('Be brief.');
    expect(box.readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'Instructions (set)' }));
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Instructions for this chat' }), { key: 'Enter', ctrlKey: true });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(t.callsOf('SetThreadOptions')).toEqual([]);
    expect(t.callsOf('NewThread')).toEqual([]);
  });
});
