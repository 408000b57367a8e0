import { describe, expect, it } from 'vitest';
import type { Settings, SettingsView } from '../transport/contract';
import { NOT_A_URL, displaySource, isDirty, savePayload, urlProblem, validateSettings } from './settingsForm';

const S: Settings = {
  baseUrl: 'http://127.0.0.1:11434/v1',
  apiKey: '',
  model: 'llama3.1',
  workspace: '',
  loopGuard: 25,
  theme: 'system',
  enableWriteTools: true,
  modelAcceptsImages: false,
};

describe('validateSettings', () => {
  it('checks what Go checks, in words a person reads', () => {
    expect(validateSettings(S)).toEqual({});
    expect(validateSettings({ ...S, baseUrl: 'not a url' }).baseUrl).toBe(NOT_A_URL);
    expect(NOT_A_URL).toBe('This is not a URL: enter one like http://127.0.0.1:11434/v1');
    expect(validateSettings({ ...S, baseUrl: 'ftp://x' }).baseUrl).toBe('Use an http:// or https:// URL (not ftp://), like http://127.0.0.1:11434/v1');
    expect(validateSettings({ ...S, model: ' ' }).model).toMatch(/Choose a model/);
    expect(validateSettings({ ...S, baseUrl: '', model: '' })).toEqual({});
    expect(validateSettings({ ...S, loopGuard: 0 }).loopGuard).toMatch(/1 to 200/);
    expect(validateSettings({ ...S, loopGuard: Number.NaN }).loopGuard).toBeTruthy();
    expect(validateSettings({ ...S, loopGuard: 2.5 }).loopGuard).toBeTruthy();
    expect(validateSettings({ ...S, workspace: 'projects' }).workspace).toMatch(/full folder path/);
    expect(validateSettings({ ...S, workspace: '/home/ada' })).toEqual({});
  });

  it('skips fields the environment sets', () => {
    expect(validateSettings({ ...S, baseUrl: 'nope' }, (f) => f === 'baseUrl')).toEqual({});
  });
});

describe('savePayload and displaySource', () => {
  const view: SettingsView = {
    settings: { ...S, baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', workspace: '/ws', apiKey: '••••' },
    sources: { baseUrl: 'detected', model: 'detected', workspace: 'environment', apiKey: 'environment', loopGuard: 'default', theme: 'default' },
  };

  it('sends untouched values that were not saved as empty (Go keeps their source)', () => {
    const out = savePayload(view.settings, view);
    expect(out).toMatchObject({ baseUrl: '', model: '', workspace: '', apiKey: '', loopGuard: 25, theme: 'system' });
    const changed = savePayload({ ...view.settings, model: 'qwen' }, view);
    expect(changed).toMatchObject({ baseUrl: '', model: 'qwen' });
    const savedView: SettingsView = { ...view, sources: { ...view.sources, baseUrl: 'saved' } };
    expect(savePayload(view.settings, savedView).baseUrl).toBe('http://127.0.0.1:11434/v1');
  });

  it('shows a saved value that equals the default as "default"', () => {
    expect(displaySource('loopGuard', 25, 'saved')).toBe('default');
    expect(displaySource('loopGuard', 30, 'saved')).toBe('saved');
    expect(displaySource('theme', 'system', 'saved')).toBe('default');
    expect(displaySource('enableWriteTools', true, 'saved')).toBe('default');
    expect(displaySource('model', 'x', 'environment')).toBe('environment');
  });

  it('isDirty compares with what is saved', () => {
    expect(isDirty(view.settings, view)).toBe(false);
    expect(isDirty({ ...view.settings, theme: 'dark' }, view)).toBe(true);
    expect(isDirty(null, view)).toBe(false);
  });
});

describe('urlProblem', () => {
  it('says what is wrong with a base URL in words (issue 22 item 25)', () => {
    expect(urlProblem('not a url')).toBe(NOT_A_URL);
    expect(urlProblem('ftp://x')).toBe('Use an http:// or https:// URL (not ftp://), like http://127.0.0.1:11434/v1');
    expect(urlProblem('http://127.0.0.1:11434/v1')).toBe('');
    expect(urlProblem(' https://api.openai.com/v1 ')).toBe('');
  });
});
