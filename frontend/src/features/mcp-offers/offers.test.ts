import { describe, expect, it } from 'vitest';
import type { PromptInfo } from '../../transport/mcpOffers';
import { argsToSend, filterResources, knownArgs, matchPrompts, missingArgs, pendingFromServer, slashQuery } from './offers';

const prompt = (name: string, over: Partial<PromptInfo> = {}): PromptInfo => ({
  server: 'everything',
  serverTitle: 'Everything Reference Server',
  name,
  title: '',
  description: '',
  arguments: [],
  completes: false,
  ...over,
});

describe('slashQuery', () => {
  it('reads the command being typed, and nothing else', () => {
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/args')).toBe('args');
    expect(slashQuery('hello /args')).toBeNull();
    expect(slashQuery('/args\nmore')).toBeNull();
  });
});

describe('matchPrompts', () => {
  const list = [prompt('simple-prompt', { title: 'Simple Prompt' }), prompt('args-prompt', { title: 'Arguments Prompt' }), prompt('team', { description: 'promote someone' })];
  it('lists everything for an empty query, prefix matches first', () => {
    expect(matchPrompts(list, '').map((p) => p.name)).toEqual(['simple-prompt', 'args-prompt', 'team']);
    expect(matchPrompts(list, 'arg').map((p) => p.name)).toEqual(['args-prompt']);
    expect(matchPrompts(list, 'prompt').map((p) => p.name)).toEqual(['simple-prompt', 'args-prompt']);
    expect(matchPrompts(list, 'promote').map((p) => p.name)).toEqual(['team']);
    expect(matchPrompts(list, 'zzz')).toEqual([]);
  });
});

describe('the argument form', () => {
  const p = prompt('args-prompt', {
    arguments: [
      { name: 'city', required: true },
      { name: 'state', required: false },
    ],
  });
  it('says which required arguments are missing', () => {
    expect(missingArgs(p, {})).toEqual(['city']);
    expect(missingArgs(p, { city: '  ' })).toEqual(['city']);
    expect(missingArgs(p, { city: 'Paris' })).toEqual([]);
  });
  it('sends filled-in values only, and the others as a completion context', () => {
    expect(argsToSend({ city: 'Paris', state: '' })).toEqual({ city: 'Paris' });
    expect(knownArgs({ department: 'Sales', name: 'D' }, 'name')).toEqual({ department: 'Sales' });
  });
});

describe('resources', () => {
  it('filters by name, title, URI and description', () => {
    const rs = [
      { server: 'e', uri: 'demo://doc/features.md', name: 'features.md', title: '', description: '', mimeType: 'text/markdown', size: 0 },
      { server: 'e', uri: 'demo://doc/notes.txt', name: 'notes.txt', title: 'Notes', description: 'what we said', mimeType: 'text/plain', size: 0 },
    ];
    expect(filterResources(rs, 'FEAT').map((r) => r.name)).toEqual(['features.md']);
    expect(filterResources(rs, 'said').map((r) => r.name)).toEqual(['notes.txt']);
    expect(filterResources(rs, '')).toHaveLength(2);
  });
  it('turns a server file into a composer attachment of the right kind', () => {
    const text = pendingFromServer({ name: '42.txt', mimeType: 'text/plain', data: btoa('Resource 42'), size: 11 });
    expect(text.kind).toBe('text');
    expect(text.previewUrl).toBeUndefined();
    const png = pendingFromServer({ name: 'a.png', mimeType: 'image/png', data: 'iVBORw0KGgo=', size: 8 });
    expect(png.kind).toBe('image');
    expect(png.previewUrl).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(png.key).not.toBe(text.key);
  });
});
