import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { EndpointSettings, endpointOf, draftOf, parseModels } from './EndpointSettings';
import { FakeTransport } from '../../test/fakeTransport';
import type { Endpoint } from '../../transport/endpoints';
import { JunctureError } from '../../transport/errors';
import { change } from '../../test/change';

function endpoint(p: Partial<Endpoint> & { id: string }): Endpoint {
  return { name: p.id, baseUrl: `http://127.0.0.1:1/${p.id}`, apiKey: '', models: [], prices: {}, source: 'saved', isDefault: false, defaultModel: '', ...p };
}

function setup() {
  let list: Endpoint[] = [
    endpoint({ id: 'env', name: 'Environment (127.0.0.1:11435)', source: 'environment', isDefault: true, defaultModel: 'fake-model', models: ['fake-model'] }),
    endpoint({ id: 'ep-1', name: 'Work', baseUrl: 'https://api.example.com/v1', apiKey: '••••1234', models: ['gpt-x', 'gpt-y'], defaultModel: 'gpt-x', prices: { 'gpt-x': { inputPerMTok: 1, outputPerMTok: 4 } } }),
    endpoint({ id: 'ollama', name: 'Ollama', source: 'detected', defaultModel: 'llama3.2', models: ['llama3.2'] }),
  ];
  const t = new FakeTransport({
    ListEndpoints: () => list,
    ListModels: (id) => {
      if (id === 'ep-1') return ['gpt-x', 'gpt-y', 'gpt-z'];
      throw new JunctureError('unavailable', 'Could not list the models of Ollama: connection refused');
    },
    SaveEndpoint: (e) => {
      if (e.baseUrl.includes('bad')) throw new JunctureError('invalid-settings', 'Some fields need a fix; nothing was saved.', { baseUrl: 'Enter a full http:// or https:// URL.' });
      const saved = { ...e, id: e.id || 'ep-new', source: e.source, apiKey: e.apiKey && !e.apiKey.startsWith('••••') ? `••••${e.apiKey.slice(-4)}` : e.apiKey };
      list = e.id ? list.map((x) => (x.id === e.id ? saved : x)) : [...list, saved];
      return saved;
    },
    DeleteEndpoint: (id) => {
      list = list.filter((x) => x.id !== id);
      return null;
    },
  });
  // The window gets the well-known servers from Go (GetSettings' providers).
  const providers = [{ id: 'openrouter', name: 'OpenRouter', label: 'OpenRouter', url: 'https://openrouter.ai/api/v1', local: false }];
  render(<EndpointSettings transport={t} providers={providers} />);
  return { t };
}

const row = (name: string) => screen.getByRole('listitem', { name });

describe('EndpointSettings', () => {
  it('lists the endpoints with where each comes from, the default marked, keys masked', async () => {
    setup();
    await waitFor(() => expect(row('Work')).toBeTruthy());
    expect(within(row('Environment (127.0.0.1:11435)')).getByText('default')).toBeTruthy();
    expect(within(row('Environment (127.0.0.1:11435)')).getByText('from environment')).toBeTruthy();
    expect(within(row('Ollama')).getByText('detected')).toBeTruthy();
    expect(within(row('Work')).getByText('key ••••1234')).toBeTruthy();
    // Only saved endpoints can be deleted or made the default.
    expect(within(row('Ollama')).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(within(row('Work')).getByRole('button', { name: 'Make default' })).toBeTruthy();
  });

  it('tests a connection and says what failed', async () => {
    setup();
    await waitFor(() => expect(row('Work')).toBeTruthy());
    fireEvent.click(within(row('Work')).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(within(row('Work')).getByText('✓ Connected: 3 models available.')).toBeTruthy());
    fireEvent.click(within(row('Ollama')).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(within(row('Ollama')).getByText(/✗ Could not list the models of Ollama/)).toBeTruthy());
  });

  it('adds an endpoint with models and a price; the key is sent once and comes back masked', async () => {
    const { t } = setup();
    await waitFor(() => expect(row('Work')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Add an endpoint' }));
    const form = screen.getByRole('form', { name: 'Add an endpoint' });
    change(within(form).getByLabelText('Server'), { target: { value: 'https://openrouter.ai/api/v1' } });
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('OpenRouter');
    change(within(form).getByLabelText('API key'), { target: { value: 'sk-or-secret-9876' } });
    change(within(form).getByLabelText('Models'), { target: { value: 'a/model-1\na/model-2, a/model-1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add a price' }));
    expect((within(form).getByLabelText('Model of price 1') as HTMLInputElement).value).toBe('a/model-1');
    change(within(form).getByLabelText('Input price of a/model-1'), { target: { value: '0.5' } });
    change(within(form).getByLabelText('Output price of a/model-1'), { target: { value: '1.5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save endpoint' }));
    await waitFor(() => expect(t.callsOf('SaveEndpoint')).toHaveLength(1));
    expect(t.callsOf('SaveEndpoint')[0]![0]).toMatchObject({
      id: '',
      name: 'OpenRouter',
      baseUrl: 'https://openrouter.ai/api/v1',
      apiKey: 'sk-or-secret-9876',
      models: ['a/model-1', 'a/model-2'],
      prices: { 'a/model-1': { inputPerMTok: 0.5, outputPerMTok: 1.5 } },
      isDefault: false,
    });
    await waitFor(() => expect(within(row('OpenRouter')).getByText('key ••••9876')).toBeTruthy());
    expect(screen.queryByRole('form')).toBeNull();
  });

  // The Server select shows the server of the Base URL. Choosing "Custom"
  // changes nothing (the URL stays until the person types another): React
  // put the select back; Preact leaves the DOM as chosen unless told, and
  // the select showed Custom over OpenRouter's URL, which Save then kept.
  it('keeps the Server select on the URL’s server when Custom changes nothing', async () => {
    setup();
    await waitFor(() => expect(row('Work')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Add an endpoint' }));
    const form = screen.getByRole('form', { name: 'Add an endpoint' });
    const server = within(form).getByLabelText('Server') as HTMLSelectElement;
    change(server, { target: { value: 'https://openrouter.ai/api/v1' } });
    change(server, { target: { value: '' } });
    await Promise.resolve();
    expect((within(form).getByLabelText('Base URL') as HTMLInputElement).value).toBe('https://openrouter.ai/api/v1');
    expect(server.value).toBe('https://openrouter.ai/api/v1');
  });

  it('shows Go’s field errors and keeps the form', async () => {
    setup();
    await waitFor(() => expect(row('Work')).toBeTruthy());
    fireEvent.click(within(row('Work')).getByRole('button', { name: 'Edit Work' }));
    const form = screen.getByRole('form', { name: 'Edit Work' });
    // The masked key is sent back as it is (Go keeps the stored one).
    change(within(form).getByLabelText('Base URL'), { target: { value: 'http://bad.example/v1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save endpoint' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('Enter a full http:// or https:// URL.'));
    // Checked before sending too.
    change(within(form).getByLabelText('Base URL'), { target: { value: 'not a url' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save endpoint' }));
    expect(within(form).getByRole('alert').textContent).toMatch(/This is not a URL/);
  });

  it('makes an endpoint the default, and deletes one after asking', async () => {
    const { t } = setup();
    await waitFor(() => expect(row('Work')).toBeTruthy());
    fireEvent.click(within(row('Work')).getByRole('button', { name: 'Make default' }));
    await waitFor(() => expect(t.callsOf('SaveEndpoint')).toHaveLength(1));
    expect(t.callsOf('SaveEndpoint')[0]![0]).toMatchObject({ id: 'ep-1', apiKey: '••••1234', isDefault: true });
    fireEvent.click(within(row('Work')).getByRole('button', { name: 'Delete Work' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Delete Work?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Work' })).toBeNull());
    expect(t.callsOf('DeleteEndpoint')).toEqual([['ep-1']]);
  });

  it('sets only the prices of the environment’s endpoint', async () => {
    const { t } = setup();
    await waitFor(() => expect(row('Work')).toBeTruthy());
    fireEvent.click(within(row('Environment (127.0.0.1:11435)')).getByRole('button', { name: 'Prices of Environment (127.0.0.1:11435)' }));
    const form = screen.getByRole('form');
    expect(within(form).queryByLabelText('Base URL')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Add a price' }));
    change(within(form).getByLabelText('Model of price 1'), { target: { value: 'fake-model' } });
    change(within(form).getByLabelText('Output price of fake-model'), { target: { value: '-1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save endpoint' }));
    expect(within(form).getByRole('alert').textContent).toMatch(/zero or more/);
    change(within(form).getByLabelText('Output price of fake-model'), { target: { value: '2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save endpoint' }));
    await waitFor(() => expect(t.callsOf('SaveEndpoint')).toHaveLength(1));
    expect(t.callsOf('SaveEndpoint')[0]![0]).toMatchObject({ id: 'env', source: 'environment', prices: { 'fake-model': { inputPerMTok: 0, outputPerMTok: 2 } } });
  });

  it('reads models and prices from the form as Go takes them', () => {
    expect(parseModels(' a, b\n\na \nc')).toEqual(['a', 'b', 'c']);
    const d = { ...draftOf(null), baseUrl: 'http://x/v1', prices: [{ model: '', input: '', output: '' }] };
    expect(endpointOf(d, 'saved')).toMatchObject({ endpoint: { prices: {} } });
    expect(endpointOf({ ...d, prices: [{ model: '', input: '1', output: '' }] }, 'saved')).toEqual({ errors: { prices: 'Each price needs a model name.' } });
  });
});
