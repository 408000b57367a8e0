import { describe, expect, it } from 'vitest';
import { splitFamilies } from './fontStack';

// Values a theme or a user style could give --font-ui: a comma inside a
// function's parentheses or after an escaped quote is not a separator, and
// splitting there makes a value the engine rejects as a whole.
describe('splitFamilies on hostile values', () => {
  it.each([
    ['var(--brand, Arial), serif', ['var(--brand, Arial)', 'serif']],
    ['var(--a, var(--b, Arial)), sans-serif', ['var(--a, var(--b, Arial))', 'sans-serif']],
    ['"a\\"b, c", serif', ['"a\\"b, c"', 'serif']],
    ["'x\\', y', monospace", ["'x\\', y'", 'monospace']],
    ['Foo\\, Bar, serif', ['Foo\\, Bar', 'serif']],
    [' , ,serif, ', ['serif']],
    ['', []],
    // Inside quotes, spaces are part of the name: collapsing them names another font.
    ["'Foo  Bar',\n\t  Baz   Qux, serif", ["'Foo  Bar'", 'Baz Qux', 'serif']],
  ])('%s', (value, want) => {
    expect(splitFamilies(value)).toEqual(want);
  });
});
