import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/preact';
import type { SearchHit } from '../../transport/contract';
import { SearchResults } from './SearchResults';
import { formatTime } from '../../lib/format';

const hit = (n: number, extra: Partial<SearchHit>): SearchHit => ({
  threadId: `th-${n}`,
  threadTitle: `Chat ${n}`,
  messageId: `m-${n}`,
  role: 'assistant',
  parts: [{ text: 'sourdough', match: true }],
  createdAt: Date.UTC(2026, 5, 1, 12),
  rank: 0,
  ...extra,
});

afterEach(() => vi.useRealTimers());

describe('SearchResults: imported answers and old dates', () => {
  it('TestImportedAnswersLabelledBySource: ChatGPT and Claude answers are labelled by their source, not "Juncture:"', () => {
    render(
      <SearchResults
        query="sourdough"
        loading={false}
        error={null}
        onOpen={() => {}}
        hits={[hit(1, { threadId: 'chatgpt-1', source: 'chatgpt' }), hit(2, { threadId: 'claude-2', source: 'claude' }), hit(3, {}), hit(4, { role: 'user', source: 'claude' })]}
      />,
    );
    const roles = screen.getAllByText(/^(ChatGPT|Claude|Juncture|You):/).map((e) => e.textContent?.trim());
    expect(roles).toEqual(['ChatGPT:', 'Claude:', 'Juncture:', 'You:']);
  });

  it('TestOtherYearShowsYear: a date from another year shows the year; this year it does not', () => {
    vi.useFakeTimers({ now: new Date(2026, 11, 2, 10), toFake: ['Date'] });
    expect(formatTime(new Date(2023, 4, 1, 9).getTime())).toMatch(/2023/);
    expect(formatTime(new Date(2026, 4, 1, 9).getTime())).not.toMatch(/2026/);
    expect(formatTime(new Date(2026, 11, 2, 9, 5).getTime())).not.toMatch(/Dec|2026/);
  });
});
