import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { ConnectModel, DetectedServer } from './FirstStart';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import type { Settings, Status } from '../../transport/contract';
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

/** What a select shows: its chosen option's text ("" when none is chosen, as a browser shows a blank box). */
function shown(el: HTMLElement): string {
  return (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '';
}

const OLLAMA = { id: 'ollama', name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: '', prices: {}, source: 'detected' as const, isDefault: false, defaultModel: 'llama3.2' };

describe('a model the server does not list is shown, not a blank box', () => {
  it('the found server: the model in force (saved or from the environment) shows as not listed, stays choosable, and is what Keep saves', async () => {
    const saved: Settings[] = [];
    const t = new FakeTransport({
      GetSettings: () => ({ settings: SETTINGS, sources: {} }),
      ListEndpoints: () => [{ ...OLLAMA, models: ['llama3.2', 'qwen3'] }],
      SaveSettings: (s) => {
        saved.push(s);
        return { settings: s, sources: {} };
      },
    });
    const status: Status = { mode: 'desktop', configured: true, endpoint: OLLAMA.baseUrl, model: 'mistral:7b', detected: 'Ollama at 127.0.0.1:11434' };
    render(
      <TransportContext.Provider value={t}>
        <DetectedServer status={status} />
      </TransportContext.Provider>,
    );
    const select = await screen.findByLabelText('Model');
    await waitFor(() => expect((select as HTMLSelectElement).options.length).toBeGreaterThan(1));
    expect(shown(select)).toBe('mistral:7b (not listed by the server)');
    expect((select as HTMLSelectElement).value).toBe('mistral:7b');
    change(select, { target: { value: 'qwen3' } });
    expect(shown(select)).toBe('qwen3');
    // Choosing another model does not take the first one away.
    change(select, { target: { value: 'mistral:7b' } });
    expect(shown(select)).toBe('mistral:7b (not listed by the server)');
    fireEvent.click(screen.getByRole('button', { name: 'Keep using it' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ baseUrl: OLLAMA.baseUrl, model: 'mistral:7b' });
  });

  it('a local server looked up again: the box shows the model Use saves (the first one it lists now)', async () => {
    const saved: Settings[] = [];
    const transport = (models: string[]) =>
      new FakeTransport({
        GetSettings: () => ({ settings: SETTINGS, sources: {} }),
        ListEndpoints: () => [{ ...OLLAMA, models }],
        SaveSettings: (s) => {
          saved.push(s);
          return { settings: s, sources: {} };
        },
      });
    const { rerender } = render(
      <TransportContext.Provider value={transport(['llama3.2', 'qwen3'])}>
        <ConnectModel />
      </TransportContext.Provider>,
    );
    await screen.findByRole('button', { name: 'Use Ollama' });
    expect(shown(screen.getByLabelText('Ollama model'))).toBe('llama3.2');
    // The app's connection changes (a new transport): the servers are looked up again.
    rerender(
      <TransportContext.Provider value={transport(['qwen3'])}>
        <ConnectModel />
      </TransportContext.Provider>,
    );
    await waitFor(() => expect((screen.getByLabelText('Ollama model') as HTMLSelectElement).options[0]?.textContent).toBe('qwen3'));
    expect(shown(screen.getByLabelText('Ollama model'))).toBe('qwen3');
    fireEvent.click(screen.getByRole('button', { name: 'Use Ollama' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ model: 'qwen3' });
  });
});

describe('the found server follows the status until the person picks a model', () => {
  const base: Status = { mode: 'desktop', configured: true, endpoint: OLLAMA.baseUrl, model: '', detected: 'Ollama at 127.0.0.1:11434' };
  function found(status: Status) {
    const saved: Settings[] = [];
    const t = new FakeTransport({
      GetSettings: () => ({ settings: SETTINGS, sources: {} }),
      ListEndpoints: () => [{ ...OLLAMA, models: ['llama3.2', 'qwen3'] }],
      SaveSettings: (s) => {
        saved.push(s);
        return { settings: s, sources: {} };
      },
    });
    const view = (s: Status) => (
      <TransportContext.Provider value={t}>
        <DetectedServer status={s} />
      </TransportContext.Provider>
    );
    const { rerender } = render(view(status));
    return { saved, update: (s: Status) => rerender(view(s)) };
  }
  const select = () => screen.getByLabelText('Model') as HTMLSelectElement;
  const keep = () => screen.getByRole('button', { name: 'Keep using it' }) as HTMLButtonElement;
  /** The text the button's aria-describedby points at ("" for none). */
  const reason = (el: HTMLElement) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((i) => document.getElementById(i)?.textContent ?? '')
      .join(' ');

  it('no model yet: Keep is disabled, with the reason shown and tied to it; a model the server reports later is selected and Keep saves it', async () => {
    const { saved, update } = found(base);
    await waitFor(() => expect(select().options.length).toBeGreaterThan(1));
    expect(select().value).toBe('');
    expect(keep().disabled).toBe(true);
    expect(reason(keep())).toBe('Choose a model to keep using this server.');
    expect(screen.getByText('Choose a model to keep using this server.')).toBeTruthy();
    // The server has loaded a model: the status says which.
    update({ ...base, model: 'qwen3' });
    await waitFor(() => expect(select().value).toBe('qwen3'));
    expect(shown(select())).toBe('qwen3');
    expect(keep().disabled).toBe(false);
    expect(keep().getAttribute('aria-describedby')).toBeNull();
    expect(screen.queryByText('Choose a model to keep using this server.')).toBeNull();
    fireEvent.click(keep());
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ baseUrl: OLLAMA.baseUrl, model: 'qwen3' });
  });

  it('not picked: the select follows the model the status reports now', async () => {
    const { saved, update } = found({ ...base, model: 'llama3.2' });
    await waitFor(() => expect(select().options.length).toBeGreaterThan(1));
    expect(select().value).toBe('llama3.2');
    update({ ...base, model: 'qwen3' });
    await waitFor(() => expect(select().value).toBe('qwen3'));
    fireEvent.click(keep());
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ model: 'qwen3' });
  });

  it('choosing a model enables Keep at once', async () => {
    found(base);
    await waitFor(() => expect(select().options.length).toBeGreaterThan(1));
    expect(keep().disabled).toBe(true);
    change(select(), { target: { value: 'llama3.2' } });
    expect(keep().disabled).toBe(false);
    expect(reason(keep())).toBe('');
  });

  it('once the person picked a model, a later status keeps their choice', async () => {
    const { saved, update } = found({ ...base, model: 'llama3.2' });
    await waitFor(() => expect(select().options.length).toBeGreaterThan(1));
    expect(select().value).toBe('llama3.2');
    change(select(), { target: { value: 'qwen3' } });
    update({ ...base, model: 'mistral:7b' });
    await waitFor(() => expect(screen.getByText('mistral:7b (not listed by the server)')).toBeTruthy());
    expect(select().value).toBe('qwen3');
    expect(shown(select())).toBe('qwen3');
    fireEvent.click(keep());
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ model: 'qwen3' });
  });
});
