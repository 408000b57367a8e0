import { describe, expect, it } from 'vitest';
import { stepNumber } from './generalField';

// ↑/↓ in a number field step as a number box's do: by one within the
// range, and text outside it comes back to the end it is past, never
// jumping to the other end (250 and ↑ is 200, not 1).
describe('stepNumber', () => {
  const range = { min: 1, max: 200 };
  it.each([
    { text: '5', by: 1, want: 6 },
    { text: '5', by: -1, want: 4 },
    { text: '200', by: 1, want: 200 },
    { text: '1', by: -1, want: 1 },
    { text: '  7  ', by: 1, want: 8 },
    // Unreadable or empty: from the end the arrow points away from.
    { text: '', by: 1, want: 1 },
    { text: '1e', by: 1, want: 1 },
    { text: '1e', by: -1, want: 200 },
    { text: '0x10', by: 1, want: 1 }, // not decimal: no number, as in the field
    { text: 'Infinity', by: -1, want: 200 },
    // Past an end: back to that end, whichever arrow.
    { text: '999', by: 1, want: 200 },
    { text: '999', by: -1, want: 200 },
    { text: '1e400', by: 1, want: 200 },
    { text: '9'.repeat(400), by: 1, want: 200 },
    { text: '0', by: -1, want: 1 },
    { text: '0', by: 1, want: 1 },
    { text: '-5', by: -1, want: 1 },
    { text: '-1e400', by: 1, want: 1 },
    // A fraction within the range: to the whole number in the arrow's direction.
    { text: '2.5', by: 1, want: 3 },
    { text: '2.5', by: -1, want: 2 },
    { text: '199.5', by: 1, want: 200 },
    { text: '1.5', by: -1, want: 1 },
  ] as const)('$text and $by → $want', ({ text, by, want }) => {
    expect(stepNumber(text, by, range)).toBe(want);
  });
});
