import { describe, expect, it } from 'vitest';
import { DraftStore, carryTyped } from './drafts';

describe('carryTyped', () => {
  const store = () => new DraftStore(() => null);
  it.each([
    // [from before, from now, to before, to after, from after]
    ['', 'xyz', '', 'xyz', ''],
    ['old ', 'old typed', 'kept ', 'kept typed', 'old '],
    ['old', 'replaced', '', 'replaced', 'old'], // not an addition: all of it goes
    ['same', 'same', 'kept', 'kept', 'same'], // nothing typed: nothing moves
    // emptied (sent, or cleared) meanwhile: the old draft does not come back
    ['old', '', 'kept', 'kept', ''],
  ])('from %j (now %j) into %j', (before, now, to, toAfter, fromAfter) => {
    const s = store();
    s.set('new', now);
    s.set('th', to);
    carryTyped('new', before, 'th', s);
    expect(s.get('th')).toBe(toAfter);
    expect(s.get('new')).toBe(fromAfter);
  });
  it('a draft into itself is left alone', () => {
    const s = store();
    s.set('new', 'abc');
    carryTyped('new', '', 'new', s);
    expect(s.get('new')).toBe('abc');
  });
});
