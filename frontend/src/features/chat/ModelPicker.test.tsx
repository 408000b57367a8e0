import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { ModelPicker, matches } from './ModelPicker';
import type { Endpoint } from '../../transport/endpoints';
import type { ModelLists } from '../../hooks/useEndpoints';
import { change } from '../../test/change';

function endpoint(p: Partial<Endpoint> & { id: string }): Endpoint {
  return { name: p.id, baseUrl: `http://127.0.0.1:1/${p.id}`, apiKey: '', models: [], prices: {}, source: 'saved', isDefault: false, defaultModel: '', ...p };
}

const ENDPOINTS = [
  endpoint({ id: 'env', name: 'Environment', source: 'environment', isDefault: true, defaultModel: 'fake-model', models: ['fake-model'] }),
  endpoint({ id: 'ep-2', name: 'Second', models: ['model-x'], defaultModel: 'model-x' }),
];
const LISTS: ModelLists = {
  env: { models: ['fake-model', 'gpt-4o-mini'], loading: false },
  'ep-2': { models: ['model-x', 'model-y', 'llama3.2'], loading: false },
};

function show(current = { endpointId: '', model: '' }, lists: ModelLists = LISTS) {
  const onPick = vi.fn();
  const onClose = vi.fn();
  render(<ModelPicker endpoints={ENDPOINTS} lists={lists} current={current} onPick={onPick} onClose={onClose} />);
  const input = screen.getByRole('combobox', { name: 'Search models' });
  const options = () => screen.queryAllByRole('option').map((o) => o.textContent);
  const active = () => document.getElementById(input.getAttribute('aria-activedescendant') ?? '')?.textContent;
  return { onPick, onClose, input, options, active };
}

describe('ModelPicker', () => {
  it('lists every endpoint with its saved and listed models, the current one selected, in groups', () => {
    const { input, options } = show({ endpointId: 'ep-2', model: 'model-y' });
    expect(document.activeElement).toBe(input);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(options()).toEqual(['Default modelfake-model on Environment (Settings)', 'fake-model', 'gpt-4o-mini', 'model-x', 'model-y✓', 'llama3.2']);
    const second = screen.getByRole('group', { name: /Second/ });
    expect(within(second).getAllByRole('option')).toHaveLength(3);
    expect(within(second).getByRole('option', { name: /model-y/ }).getAttribute('aria-selected')).toBe('true');
  });

  it('filters as you type, on model and endpoint names, word by word', () => {
    const { input, options } = show();
    change(input, { target: { value: 'llama' } });
    expect(options()).toEqual(['llama3.2', 'llamaUse as typed on Environment']);
    change(input, { target: { value: 'second model' } });
    expect(options()).toEqual(['model-x', 'model-y']);
    change(input, { target: { value: 'model-y' } });
    expect(options()).toEqual(['model-y']); // an exact match: no "use as typed"
    change(input, { target: { value: 'second' } });
    expect(options()).toEqual(['model-x', 'model-y', 'llama3.2']); // an endpoint's name: no "use as typed"
    change(input, { target: { value: 'zzz' } });
    expect(options()).toEqual(['zzzUse as typed on Environment']);
  });

  it('is operated with the keyboard: arrows move (and wrap), Enter picks, Esc clears then closes', () => {
    const { input, onPick, onClose, active } = show({ endpointId: '', model: '' });
    expect(active()).toMatch(/^Default model/);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(active()).toBe('fake-model');
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(active()).toBe('llama3.2'); // wrapped to the last
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).toHaveBeenLastCalledWith({ endpointId: 'ep-2', model: 'llama3.2' });

    change(input, { target: { value: 'gpt' } });
    expect(active()).toBe('gpt-4o-mini');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).toHaveBeenLastCalledWith({ endpointId: 'env', model: 'gpt-4o-mini' });

    fireEvent.keyDown(input, { key: 'Escape' });
    expect((input as HTMLInputElement).value).toBe('');
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('picks with the mouse, and a typed name is used on the endpoint in use', () => {
    const { input, onPick } = show({ endpointId: 'ep-2', model: 'model-x' });
    fireEvent.click(screen.getByRole('option', { name: /gpt-4o-mini/ }));
    expect(onPick).toHaveBeenLastCalledWith({ endpointId: 'env', model: 'gpt-4o-mini' });
    change(input, { target: { value: 'my-finetune' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).toHaveBeenLastCalledWith({ endpointId: 'ep-2', model: 'my-finetune' });
  });

  it('says when an endpoint is still listing or could not list its models', () => {
    show({ endpointId: '', model: '' }, { env: { models: [], loading: true }, 'ep-2': { models: [], loading: false, error: 'Could not list the models of Second: refused' } });
    expect(screen.getByText('Could not list the models of Second: refused')).toBeTruthy();
    // The saved models are still offered.
    expect(screen.getByRole('option', { name: /model-x/ })).toBeTruthy();
  });

  it('matches every word', () => {
    expect(matches('gpt mini', 'gpt-4o-mini', 'OpenAI')).toBe(true);
    expect(matches('gpt ollama', 'gpt-4o-mini', 'OpenAI')).toBe(false);
    expect(matches('', 'x')).toBe(true);
  });
});

describe('ModelPicker with many models', () => {
  it('shows the first hundred of an endpoint and finds the rest by search', () => {
    const many = Array.from({ length: 150 }, (_, i) => `vendor/model-${i}`);
    render(
      <ModelPicker
        endpoints={[endpoint({ id: 'or', name: 'OpenRouter', isDefault: true })]}
        lists={{ or: { models: many, loading: false } }}
        current={{ endpointId: '', model: '' }}
        onPick={() => {}}
        onClose={() => {}}
      />,
    );
    expect(screen.getAllByRole('option')).toHaveLength(101); // the default + 100
    expect(screen.getByText('50 more: type to search them.')).toBeTruthy();
    change(screen.getByRole('combobox'), { target: { value: 'model-149' } });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['vendor/model-149', 'model-149Use as typed on OpenRouter']);
  });
});
