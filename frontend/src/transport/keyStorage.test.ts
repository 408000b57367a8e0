import { describe, expect, it } from 'vitest';
import { keyStoragePhrase, parseSettingsView } from './contract';

describe('key storage', () => {
  it('is parsed from the settings view, and absent when Go sends none', () => {
    const base = { settings: {}, sources: {} };
    expect(parseSettingsView(base).keyStorage).toBeUndefined();
    const v = parseSettingsView({ ...base, keyStorage: { kind: 'file', detail: 'file, because: no bus', path: '/c/juncture/secrets.json' } });
    expect(v.keyStorage).toEqual({ kind: 'file', detail: 'file, because: no bus', path: '/c/juncture/secrets.json' });
  });

  it('reads as a phrase after "Stored"', () => {
    expect(keyStoragePhrase(undefined)).toBe('by Juncture');
    expect(keyStoragePhrase({ kind: 'keychain', detail: 'OS keychain (Secret Service)' })).toBe('in the OS keychain (Secret Service)');
    expect(keyStoragePhrase({ kind: 'file', detail: 'file, because: no bus', path: '/c/s.json' })).toBe(
      'in a file only you can read (/c/s.json) because no bus',
    );
  });
});
