// Composer drafts: one per conversation and one for the new-chat screen,
// kept in memory while the window is open and in localStorage so that a
// reload (or a restart of the window) brings them back.
//
// Each draft is its own storage entry, `juncture.draft:<thread id>` (the
// new-chat screen uses `juncture.draft:new`), holding {"t": text, "at":
// last edit in ms}. Typing updates memory at once; storage is written a
// moment later (and at once when the page is hidden or closed), so a key
// press never waits for a synchronous storage write. The stored drafts are
// capped: at most MAX_DRAFT_CHARS characters each (a longer draft is kept
// whole in memory, its start only in storage) and MAX_DRAFTS entries (the
// least recently edited go first, also when storage is full). A draft is
// dropped when its message is sent, when it is emptied and when its
// conversation is deleted.

import { createContext } from 'react';

export const NEW_CHAT_DRAFT = 'new';
export const DRAFT_PREFIX = 'juncture.draft:';
export const MAX_DRAFT_CHARS = 20_000;
export const MAX_DRAFTS = 50;
const WRITE_DELAY_MS = 300;

/** The draft key for a conversation; `null` is the new-chat screen. */
export function draftKey(threadId: string | null): string {
  return threadId ?? NEW_CHAT_DRAFT;
}

/**
 * Which draft the composer edits: App provides the open conversation's key.
 * `null` (no provider) keeps the composer's text in the component only.
 */
export const DraftKeyContext = createContext<string | null>(null);

interface Stored {
  t: string;
  at: number;
}

function parse(raw: string | null): Stored | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Stored> | null;
    if (v && typeof v.t === 'string') return { t: v.t, at: typeof v.at === 'number' ? v.at : 0 };
  } catch {
    // a damaged entry is no draft
  }
  return null;
}

export class DraftStore {
  private mem = new Map<string, string>();
  private dirty = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly getStorage: () => Storage | null,
    private readonly now: () => number = Date.now,
  ) {}

  private storage(): Storage | null {
    try {
      return this.getStorage();
    } catch {
      return null;
    }
  }

  /** The draft for key ('' when there is none). */
  get(key: string): string {
    const m = this.mem.get(key);
    if (m !== undefined) return m;
    const s = this.read(key);
    const t = s?.t ?? '';
    this.mem.set(key, t);
    return t;
  }

  /** Replaces the draft for key; blank text drops it. Stored shortly after. */
  set(key: string, text: string): void {
    const t = text.trim() ? text : '';
    if (this.get(key) === t) return;
    this.mem.set(key, t);
    this.dirty.add(key);
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), WRITE_DELAY_MS);
  }

  /** Drops the draft for key, in memory and in storage, at once. */
  clear(key: string): void {
    this.mem.set(key, '');
    this.dirty.delete(key);
    this.remove(key);
  }

  /** Writes every changed draft to storage now. */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const keys = [...this.dirty];
    this.dirty.clear();
    for (const k of keys) this.write(k, this.mem.get(k) ?? '');
  }

  /** The keys with a stored draft, least recently edited first. */
  storedKeys(): string[] {
    const st = this.storage();
    if (!st) return [];
    const out: { key: string; at: number }[] = [];
    try {
      for (let i = 0; i < st.length; i++) {
        const k = st.key(i);
        if (!k?.startsWith(DRAFT_PREFIX)) continue;
        out.push({ key: k.slice(DRAFT_PREFIX.length), at: parse(st.getItem(k))?.at ?? 0 });
      }
    } catch {
      return [];
    }
    return out.sort((a, b) => a.at - b.at).map((x) => x.key);
  }

  private read(key: string): Stored | null {
    try {
      return parse(this.storage()?.getItem(DRAFT_PREFIX + key) ?? null);
    } catch {
      return null;
    }
  }

  private remove(key: string): void {
    try {
      this.storage()?.removeItem(DRAFT_PREFIX + key);
    } catch {
      // storage disabled: nothing was stored
    }
  }

  private write(key: string, text: string): void {
    const st = this.storage();
    if (!st) return;
    if (!text) {
      this.remove(key);
      return;
    }
    const value = JSON.stringify({ t: text.slice(0, MAX_DRAFT_CHARS), at: this.now() } satisfies Stored);
    const isNew = (() => {
      try {
        return st.getItem(DRAFT_PREFIX + key) === null;
      } catch {
        return true;
      }
    })();
    if (isNew) this.evict(MAX_DRAFTS - 1, key);
    // Storage full: drop the oldest other drafts one by one until it fits;
    // if it never does, this draft lives in this window's memory only.
    for (let tries = 0; tries <= MAX_DRAFTS; tries++) {
      try {
        st.setItem(DRAFT_PREFIX + key, value);
        return;
      } catch {
        const oldest = this.storedKeys().find((k) => k !== key);
        if (oldest === undefined) return;
        this.remove(oldest);
      }
    }
  }

  /** Removes the oldest stored drafts (never keep) until at most `room` remain. */
  private evict(room: number, keep: string): void {
    const keys = this.storedKeys().filter((k) => k !== keep);
    // What this window holds in memory stays for this session.
    for (const k of keys.slice(0, Math.max(0, keys.length - room))) this.remove(k);
  }
}

function localStore(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The window's drafts. */
export const drafts = new DraftStore(localStore);

if (typeof window !== 'undefined') {
  // A reload or a closing window writes what is still pending.
  window.addEventListener('pagehide', () => drafts.flush());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') drafts.flush();
  });
}

/**
 * Moves what was typed into draft `from` since it read `before` to the end
 * of draft `to`, and puts `from` back as it was: the window's start-up
 * (App) shows the new-chat composer, focused, before it knows which chat a
 * juncture:// link opens, and the keys the person typed meanwhile belong
 * to the chat they see next.
 */
export function carryTyped(from: string, before: string, to: string, store: DraftStore = drafts): void {
  const now = store.get(from);
  // Emptied meanwhile (sent, or cleared): nothing to carry, and putting
  // `before` back would bring back a draft the person sent or deleted.
  if (now === before || from === to || now === '') return;
  const typed = now.startsWith(before) ? now.slice(before.length) : now;
  store.set(from, before);
  store.set(to, store.get(to) + typed);
}
