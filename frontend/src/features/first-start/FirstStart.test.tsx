import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { ConnectModel } from './FirstStart';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import type { Settings } from '../../transport/contract';
import { JunctureError } from '../../transport/errors';
import { change } from '../../test/change';

const SETTINGS: Settings = { baseUrl: '', apiKey: '', model: '', workspace: '', loopGuard: 25, theme: 'system', enableWriteTools: false, modelAcceptsImages: false };

function setup(ollama: boolean, demoFails = false) {
  const saved: Settings[] = [];
  const demos: number[] = [];
  const t = new FakeTransport({
    GetSettings: () => ({ settings: SETTINGS, sources: {} }),
    ListEndpoints: () =>
      ollama
        ? [{ id: 'ollama', name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: '', models: ['llama3.2', 'qwen3'], prices: {}, source: 'detected', isDefault: false, defaultModel: 'llama3.2' }]
        : [],
    TestConnection: (s) => {
      return s.apiKey === 'sk-good' ? { ok: true, message: 'Connected: 2 models.', models: ['gpt-4.1', 'gpt-4.1-mini'] } : { ok: false, message: 'The key was refused (401).', models: [] };
    },
    StartDemo: () => {
      demos.push(1);
      if (demoFails) throw new JunctureError('unavailable', 'Could not start the offline demo: no port.');
      return { id: 'endpoint-demo', name: 'Offline demo', baseUrl: 'http://127.0.0.1:40000/v1', apiKey: '', models: ['offline-demo'], prices: {}, source: 'saved', isDefault: true, defaultModel: 'offline-demo' };
    },
    SaveSettings: (s) => {
      saved.push(s);
      return { settings: s, sources: {} };
    },
  });
  render(
    <TransportContext.Provider value={t}>
      <ConnectModel />
    </TransportContext.Provider>,
  );
  return { t, saved, demos };
}

describe('ConnectModel (first start)', () => {
  it('offers the local server it finds, with its models', async () => {
    const { saved } = setup(true);
    const use = await screen.findByRole('button', { name: 'Use Ollama' });
    change(screen.getByLabelText('Ollama model'), { target: { value: 'qwen3' } });
    fireEvent.click(use);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3', apiKey: '' });
  });

  it('a provider with a key: Test connection lists models, a refused key says why', async () => {
    const { saved } = setup(false);
    expect(await screen.findByText('No Ollama or LM Studio is running here.')).toBeTruthy();
    for (const name of ['OpenAI', 'OpenRouter', 'Groq', 'Custom URL']) expect(screen.getByRole('radio', { name })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Groq' }));
    change(screen.getByLabelText('API key'), { target: { value: 'sk-bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('The key was refused (401).')).toBeTruthy();
    change(screen.getByLabelText('API key'), { target: { value: 'sk-good' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Use Groq' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ baseUrl: 'https://api.groq.com/openai/v1', apiKey: 'sk-good', model: 'gpt-4.1' });
  });

  it('offers the offline demo: one click asks the app to serve it, saving nothing else', async () => {
    const { saved, demos } = setup(false);
    expect(screen.getByText('Scripted answers, no network — say hello to see what it can do.')).toBeTruthy();
    expect(screen.queryByText(/make demo/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try the offline demo' }));
    await waitFor(() => expect(demos).toHaveLength(1));
    expect(saved).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why the demo could not start', async () => {
    setup(false, true);
    fireEvent.click(screen.getByRole('button', { name: 'Try the offline demo' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not start the offline demo');
  });
});
