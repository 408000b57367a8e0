import { useState } from 'react';

// What a person typed or chose on a card, by interrupt id. It outlives the
// card: a refused answer restarts the run (RUN_STARTED clears the cards,
// the resync brings them back), and switching chats unmounts them.
const drafts = new Map<string, Map<string, unknown>>();
const MAX_DRAFTS = 100;

/** Forgets the drafts of these items (all without ids): their answers went through. */
export function forgetDrafts(ids?: readonly string[]): void {
  if (!ids) drafts.clear();
  else for (const id of ids) drafts.delete(id);
}

/** useState whose value is kept for the item (see drafts) and restored when its card comes back. */
export function useDraft<T>(itemId: string, key: string, initial: T | (() => T)): [T, (v: T) => void] {
  const [value, setValue] = useState<T>(() => {
    const kept = drafts.get(itemId);
    if (kept?.has(key)) return kept.get(key) as T;
    return typeof initial === 'function' ? (initial as () => T)() : initial;
  });
  const set = (v: T) => {
    let kept = drafts.get(itemId);
    if (!kept) {
      if (drafts.size >= MAX_DRAFTS) drafts.delete(drafts.keys().next().value!);
      kept = new Map();
      drafts.set(itemId, kept);
    }
    kept.set(key, v);
    setValue(v);
  };
  return [value, set];
}
