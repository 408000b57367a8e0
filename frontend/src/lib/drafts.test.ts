import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DRAFT_PREFIX, DraftStore, MAX_DRAFTS, MAX_DRAFT_CHARS, NEW_CHAT_DRAFT, draftKey } from './drafts';

/** A Storage in memory that can be made to refuse writes past a size. */
class MemStorage implements Storage {
  map = new Map<string, string>();
  limit = Infinity;
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    const used = [...this.map].reduce((n, [kk, vv]) => n + (kk === k ? 0 : kk.length + vv.length), 0);
    if (used + k.length + v.length > this.limit) throw new DOMException('full', 'QuotaExceededError');
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
  clear() {
    this.map.clear();
  }
}

describe('DraftStore', () => {
  let st: MemStorage;
  let clock: number;
  const make = () => new DraftStore(() => st, () => clock);

  beforeEach(() => {
    vi.useFakeTimers();
    st = new MemStorage();
    clock = 1000;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps one draft per conversation and one for the new-chat screen', () => {
    const d = make();
    d.set(draftKey('th-1'), 'about rivers');
    d.set(draftKey('th-2'), 'about lakes');
    d.set(draftKey(null), 'a new question');
    expect(draftKey(null)).toBe(NEW_CHAT_DRAFT);
    expect(d.get('th-1')).toBe('about rivers');
    expect(d.get('th-2')).toBe('about lakes');
    expect(d.get(NEW_CHAT_DRAFT)).toBe('a new question');
    expect(d.get('th-3')).toBe('');
  });

  it('writes to storage shortly after typing, not on every key', () => {
    const d = make();
    d.set('th-1', 'a');
    d.set('th-1', 'ab');
    expect(st.getItem(DRAFT_PREFIX + 'th-1')).toBeNull();
    vi.advanceTimersByTime(400);
    expect(JSON.parse(st.getItem(DRAFT_PREFIX + 'th-1')!)).toEqual({ t: 'ab', at: 1000 });
  });

  it('flush() writes at once, and a new window (a reload) reads the drafts back', () => {
    const d = make();
    d.set('th-1', 'line one\nline two');
    d.set(NEW_CHAT_DRAFT, 'hello');
    d.flush();
    const after = make();
    expect(after.get('th-1')).toBe('line one\nline two');
    expect(after.get(NEW_CHAT_DRAFT)).toBe('hello');
  });

  it('drops a draft when it is sent (clear) or emptied', () => {
    const d = make();
    d.set('th-1', 'send me');
    d.set('th-2', 'keep me');
    d.flush();
    d.clear('th-1');
    expect(d.get('th-1')).toBe('');
    expect(st.getItem(DRAFT_PREFIX + 'th-1')).toBeNull();
    d.set('th-2', '   ');
    d.flush();
    expect(st.getItem(DRAFT_PREFIX + 'th-2')).toBeNull();
    expect(make().get('th-2')).toBe('');
  });

  it('stores at most MAX_DRAFT_CHARS of a draft, and keeps it whole in memory', () => {
    const d = make();
    const long = 'x'.repeat(MAX_DRAFT_CHARS + 500);
    d.set('th-1', long);
    d.flush();
    expect(d.get('th-1')).toBe(long);
    expect(make().get('th-1')).toHaveLength(MAX_DRAFT_CHARS);
  });

  it('keeps at most MAX_DRAFTS stored drafts, dropping the least recently edited', () => {
    const d = make();
    for (let i = 0; i < MAX_DRAFTS + 5; i++) {
      clock = 1000 + i;
      d.set(`th-${i}`, `draft ${i}`);
      d.flush();
    }
    const keys = d.storedKeys();
    expect(keys).toHaveLength(MAX_DRAFTS);
    expect(keys).not.toContain('th-0');
    expect(keys).toContain(`th-${MAX_DRAFTS + 4}`);
    // An edit makes a draft recent again.
    clock = 5000;
    d.set('th-5', 'draft 5, edited');
    d.flush();
    clock = 5001;
    d.set('th-new', 'one more');
    d.flush();
    expect(d.storedKeys()).toContain('th-5');
    expect(d.storedKeys()).not.toContain('th-6');
    // This window still has the dropped drafts it knew.
    expect(d.get('th-0')).toBe('draft 0');
  });

  it('makes room when storage is full, and keeps the draft in memory if it still does not fit', () => {
    const d = make();
    for (let i = 0; i < 10; i++) {
      clock = 1000 + i;
      d.set(`th-${i}`, 'y'.repeat(100));
      d.flush();
    }
    st.limit = [...st.map].reduce((n, [k, v]) => n + k.length + v.length, 0);
    clock = 2000;
    d.set('th-big', 'z'.repeat(300));
    d.flush();
    expect(make().get('th-big')).toBe('z'.repeat(300));
    expect(d.storedKeys()).not.toContain('th-0');
    st.limit = 10;
    d.set('th-huge', 'w'.repeat(500));
    d.flush();
    expect(d.get('th-huge')).toBe('w'.repeat(500));
    expect(st.getItem(DRAFT_PREFIX + 'th-huge')).toBeNull();
  });

  it('ignores damaged entries and works without storage', () => {
    st.setItem(DRAFT_PREFIX + 'th-1', '{not json');
    st.setItem(DRAFT_PREFIX + 'th-2', JSON.stringify({ t: 42 }));
    const d = make();
    expect(d.get('th-1')).toBe('');
    expect(d.get('th-2')).toBe('');
    const none = new DraftStore(() => null);
    none.set('th-1', 'only in memory');
    none.flush();
    expect(none.get('th-1')).toBe('only in memory');
    const throwing = new DraftStore(() => {
      throw new Error('denied');
    });
    throwing.set('th-1', 'still here');
    expect(() => throwing.flush()).not.toThrow();
    expect(throwing.get('th-1')).toBe('still here');
  });
});
