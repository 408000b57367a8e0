import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { UsageLine, costOf, formatCost, formatTokens, priceBook, priceFor } from './UsageLine';
import { ThreadUsage } from './ThreadUsage';
import type { UIMessage } from '../../state/types';

const usage = { promptTokens: 1234, completionTokens: 56, totalTokens: 1290 };

describe('UsageLine', () => {
  it('shows the reported counts, and the exact figures in its title', () => {
    const { container } = render(<UsageLine usage={usage} pending={false} model="gpt-x" />);
    const line = container.querySelector('.usage-line')!;
    expect(line.textContent).toBe('1.2k in · 56 out');
    expect(line.getAttribute('title')).toBe('Prompt: 1,234 tokens · completion: 56 tokens · total: 1,290 · model gpt-x');
  });

  it('adds the cost when the model is priced', () => {
    const { container } = render(
      <UsageLine usage={usage} pending={false} model="gpt-x" price={{ inputPerMTok: 0.5, outputPerMTok: 1.5 }} />,
    );
    // 1234 × 0.5 / 1e6 + 56 × 1.5 / 1e6 = 0.000701
    expect(container.querySelector('.usage-line')!.textContent).toBe('1.2k in · 56 out · $0.0007');
  });

  it('says "—" (not reported, never a guess) for a finished answer without usage', () => {
    const { container } = render(<UsageLine pending={false} />);
    const line = container.querySelector('.usage-line')!;
    expect(line.textContent).toContain('—');
    expect(line.getAttribute('title')).toBe('The endpoint did not report token usage');
    expect(screen.getByText('Token usage not reported by the endpoint')).toBeTruthy();
  });

  it('shows nothing while the answer streams or its stored details are not read yet', () => {
    const { container } = render(<UsageLine pending />);
    expect(container.textContent).toBe('');
  });

  it('formats tokens and dollars', () => {
    expect([950, 1000, 1234, 12_400, 99_999, 312_400, 1_500_000].map(formatTokens)).toEqual([
      '950',
      '1k',
      '1.2k',
      '12.4k',
      '100k',
      '312k',
      '1.5M',
    ]);
    expect([0, 0.00001, 0.0012, 0.00701, 0.031, 2.5].map(formatCost)).toEqual(['$0', '<$0.0001', '$0.0012', '$0.007', '$0.03', '$2.50']);
    expect(costOf({ promptTokens: 1_000_000, completionTokens: 2_000_000, totalTokens: 3_000_000 }, { inputPerMTok: 2, outputPerMTok: 8 })).toBe(18);
  });

  it('prices a model from the thread’s endpoint first, else from any endpoint that prices it', () => {
    const book = priceBook([
      { id: 'a', prices: { m1: { inputPerMTok: 1, outputPerMTok: 2 } } },
      { id: 'b', prices: { m1: { inputPerMTok: 3, outputPerMTok: 4 }, m2: { inputPerMTok: 5, outputPerMTok: 6 } } },
      { id: 'c', prices: {} },
    ]);
    expect(priceFor(book, 'm1', 'b')).toEqual({ inputPerMTok: 3, outputPerMTok: 4 });
    expect(priceFor(book, 'm1', 'c')).toEqual({ inputPerMTok: 1, outputPerMTok: 2 });
    expect(priceFor(book, 'm2')).toEqual({ inputPerMTok: 5, outputPerMTok: 6 });
    expect(priceFor(book, 'm3')).toBeNull();
    expect(priceFor(book, undefined)).toBeNull();
    expect(priceBook([{ id: 'x', prices: {} }]).endpoints).toEqual([]);
  });
});

const answer = (id: string, model: string | undefined, u = usage): UIMessage => {
  const m: UIMessage = { id, role: 'assistant', content: 'x', reasoning: '', reasoningStreaming: false, toolCallIds: [], status: 'complete', createdAt: 1, usage: u };
  if (model) m.model = model;
  return m;
};

describe('ThreadUsage', () => {
  const total = { promptTokens: 10_000, completionTokens: 2_400, totalTokens: 12_400 };
  const book = priceBook([{ id: 'e', prices: { m1: { inputPerMTok: 2, outputPerMTok: 4 } } }]);

  it('shows the thread total with the cost when every reported answer is on the path and priced', () => {
    const msgs = [answer('a1', 'm1', { promptTokens: 6000, completionTokens: 1000, totalTokens: 7000 }), answer('a2', 'm1', { promptTokens: 4000, completionTokens: 1400, totalTokens: 5400 })];
    const { container } = render(<ThreadUsage usage={{ total, answers: 2, unreported: 0 }} messages={msgs} prices={book} endpointId="e" />);
    const el = container.querySelector('.thread-usage')!;
    // 10,000 × 2 / 1e6 + 2,400 × 4 / 1e6 = 0.0296
    expect(el.textContent).toContain('12.4k tokens · $0.03');
    expect(el.getAttribute('title')).toContain('12,400 tokens over 2 answers, every branch included: 10,000 prompt (what the model read) + 2,400 completion (what it wrote).');
  });

  it('says how many answers had no usage report, and shows no cost it cannot know', () => {
    const msgs = [answer('a1', 'm1')];
    const { container } = render(<ThreadUsage usage={{ total, answers: 4, unreported: 1 }} messages={msgs} prices={book} />);
    const el = container.querySelector('.thread-usage')!;
    expect(el.textContent).not.toContain('$');
    expect(el.getAttribute('title')).toContain('1 answer had no usage report from the endpoint and is not counted.');
    expect(el.getAttribute('title')).toContain('Cost not shown: Some answers are on other branches');
  });

  it('is "— tokens" when no answer reported usage, and nothing without answers', () => {
    const { container, rerender } = render(<ThreadUsage usage={{ total: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, answers: 2, unreported: 2 }} messages={[]} prices={book} />);
    expect(container.textContent).toContain('— tokens');
    expect(container.querySelector('.thread-usage')!.getAttribute('title')).toBe('The endpoint did not report token usage for any of the 2 answers.');
    rerender(<ThreadUsage usage={{ total, answers: 0, unreported: 0 }} messages={[]} prices={book} />);
    expect(container.textContent).toBe('');
    rerender(<ThreadUsage usage={null} messages={[]} prices={book} />);
    expect(container.textContent).toBe('');
  });
});
