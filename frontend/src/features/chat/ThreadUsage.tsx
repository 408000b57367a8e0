import type { ThreadUsageTotals, UIMessage } from '../../state/types';
import { costOf, formatCost, formatTokens, priceFor, type PriceBook } from './UsageLine';
import './ThreadUsage.css';

// The thread's token usage for its header: every answer on every branch, as
// the endpoints reported it ("12.4k tokens · $0.03"). The cost is shown
// only when it is known exactly: every answer that reported usage is on the
// path shown (the models of other branches' answers are not known here) and
// each one's model is priced in the endpoint settings.

export interface ThreadUsageProps {
  usage: ThreadUsageTotals | null;
  /** The messages on the active path (their models and counts price the thread). */
  messages: readonly UIMessage[];
  prices: PriceBook;
  /** The thread's own endpoint (thread.options.endpointId), whose prices come first. */
  endpointId?: string | undefined;
}

const exact = (n: number) => n.toLocaleString('en-US');
const answers = (n: number) => `${n} ${n === 1 ? 'answer' : 'answers'}`;

/** The thread's cost, or why it is not shown. */
export function threadCost(
  usage: ThreadUsageTotals,
  messages: readonly UIMessage[],
  prices: PriceBook,
  endpointId?: string,
): { cost: number } | { why: string } {
  const reported = usage.answers - usage.unreported;
  let onPath = 0;
  let cost = 0;
  for (const m of messages) {
    if (m.role !== 'assistant' || !m.usage) continue;
    onPath++;
    const p = priceFor(prices, m.model, endpointId);
    if (!p) return { why: m.model ? `No price is set for ${m.model}.` : 'An answer does not say which model wrote it.' };
    cost += costOf(m.usage, p);
  }
  if (onPath < reported) return { why: 'Some answers are on other branches, whose models are not shown here.' };
  return { cost };
}

/** "12.4k tokens · $0.03", with what it counts in its title; nothing for a thread without answers. */
export function ThreadUsage({ usage, messages, prices, endpointId }: ThreadUsageProps) {
  if (!usage || usage.answers === 0) return null;
  const reported = usage.answers - usage.unreported;
  if (reported === 0) {
    return (
      <span className="thread-usage is-missing" title={`The endpoint did not report token usage for ${usage.answers === 1 ? 'the answer' : `any of the ${usage.answers} answers`}.`}>
        <span aria-hidden="true">— tokens</span>
        <span className="visually-hidden">Token usage not reported by the endpoint</span>
      </span>
    );
  }
  const t = usage.total;
  const priced = prices.endpoints.length ? threadCost(usage, messages, prices, endpointId) : null;
  const lines = [
    `${exact(t.totalTokens)} tokens over ${answers(reported)}, every branch included: ${exact(t.promptTokens)} prompt (what the model read) + ${exact(t.completionTokens)} completion (what it wrote).`,
  ];
  if (usage.unreported > 0) {
    lines.push(`${answers(usage.unreported)} had no usage report from the endpoint and ${usage.unreported === 1 ? 'is' : 'are'} not counted.`);
  }
  if (priced && 'cost' in priced) lines.push(`Cost at the prices in the endpoint settings: ${formatCost(priced.cost)}.`);
  else if (priced) lines.push(`Cost not shown: ${priced.why}`);
  return (
    <span className="thread-usage" title={lines.join('\n')}>
      {formatTokens(t.totalTokens)} tokens
      {priced && 'cost' in priced && <> · {formatCost(priced.cost)}</>}
      <span className="visually-hidden">. {lines.join(' ')}</span>
    </span>
  );
}
