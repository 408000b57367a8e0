import { describe, expect, it } from 'vitest';
import { unlisted } from './unlisted';

describe('unlisted', () => {
  it.each([
    { name: 'all listed', listed: ['a', 'b'], values: ['a', 'b'], want: [] },
    { name: 'one missing', listed: ['a', 'b'], values: ['c'], want: ['c'] },
    { name: 'the same value twice, once', listed: ['a'], values: ['c', 'c'], want: ['c'] },
    { name: 'order kept', listed: [], values: ['z', 'a'], want: ['z', 'a'] },
    { name: 'the empty value is a value like any other', listed: ['a'], values: [''], want: [''] },
  ])('$name', ({ listed, values, want }) => {
    expect(unlisted(listed, ...values)).toEqual(want);
  });
});
