import { useEffect, useState } from 'react';
import type { Transport } from '../../transport';
import type { Endpoint, ModelPrice } from '../../transport/endpoints';
import type { TokenUsage } from '../../state/types';
import './UsageLine.css';

// Token usage under an answer, as the endpoint reported it ("1.2k in · 56
// out", and the cost when the endpoint settings price the model). An answer
// whose endpoint sent no usage says so ("—"); nothing is ever estimated.

/** A model's price, in dollars per million tokens (endpoint settings). */
export type Price = ModelPrice;

/** The prices every endpoint sets, by endpoint id and model (ListEndpoints). */
export interface PriceBook {
  endpoints: { id: string; prices: Record<string, Price> }[];
}

export const NO_PRICES: PriceBook = { endpoints: [] };

/**
 * The price of `model`: the thread's endpoint's price for it, else the
 * first endpoint that prices that model; null when none does.
 */
export function priceFor(book: PriceBook, model: string | undefined, endpointId?: string): Price | null {
  if (!model) return null;
  const own = endpointId ? book.endpoints.find((e) => e.id === endpointId)?.prices[model] : undefined;
  if (own) return own;
  for (const e of book.endpoints) {
    const p = e.prices[model];
    if (p) return p;
  }
  return null;
}

/** Dollars for a call: prompt tokens at the input price, completion tokens at the output price. */
export function costOf(u: TokenUsage, p: Price): number {
  return (u.promptTokens * p.inputPerMTok) / 1e6 + (u.completionTokens * p.outputPerMTok) / 1e6;
}

/** 950, 1.2k, 12.4k, 312k, 1.5M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${trim((n / 1000).toFixed(1))}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${trim((n / 1_000_000).toFixed(1))}M`;
}

const trim = (s: string) => s.replace(/\.0$/, '');

/** $0.03, $0.0012, <$0.0001, $0. */
export function formatCost(dollars: number): string {
  if (dollars === 0) return '$0';
  if (dollars < 0.0001) return '<$0.0001';
  if (dollars < 0.01) return `$${Number(dollars.toPrecision(2))}`;
  return `$${dollars.toFixed(2)}`;
}

const exact = (n: number) => n.toLocaleString('en-US');

/** The prices of ListEndpoints' endpoints. */
export function priceBook(endpoints: readonly Pick<Endpoint, 'id' | 'prices'>[]): PriceBook {
  const priced = endpoints.filter((e) => Object.keys(e.prices).length > 0).map((e) => ({ id: e.id, prices: e.prices }));
  return priced.length ? { endpoints: priced } : NO_PRICES;
}

/**
 * The endpoints' prices, read again whenever `refresh` changes (the
 * settings were saved). A failed call prices nothing.
 */
export function usePriceBook(transport: Transport | null, refresh: unknown): PriceBook {
  const [book, setBook] = useState<PriceBook>(NO_PRICES);
  useEffect(() => {
    if (!transport) return;
    let live = true;
    transport
      .call('ListEndpoints')
      .then((r) => live && setBook(priceBook(r)))
      .catch(() => live && setBook(NO_PRICES));
    return () => {
      live = false;
    };
  }, [transport, refresh]);
  return book;
}

export interface UsageLineProps {
  usage?: TokenUsage | undefined;
  /** The answer is still streaming, or its stored details have not been read yet: show nothing. */
  pending: boolean;
  model?: string | undefined;
  price?: Price | null;
}

/** "1.2k in · 56 out · $0.0012" under an answer; "—" when the endpoint reported nothing. */
export function UsageLine({ usage, pending, model, price = null }: UsageLineProps) {
  if (pending) return null;
  if (!usage) {
    return (
      <span className="usage-line is-missing" title="The endpoint did not report token usage">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">Token usage not reported by the endpoint</span>
      </span>
    );
  }
  const cost = price ? costOf(usage, price) : null;
  const title = [
    `Prompt: ${exact(usage.promptTokens)} tokens`,
    `completion: ${exact(usage.completionTokens)} tokens`,
    `total: ${exact(usage.totalTokens)}`,
    model ? `model ${model}` : '',
    price && cost !== null
      ? `${formatCost(cost)} at $${price.inputPerMTok}/M in, $${price.outputPerMTok}/M out`
      : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <span className="usage-line" title={title}>
      {formatTokens(usage.promptTokens)} in · {formatTokens(usage.completionTokens)} out
      {cost !== null && <> · {formatCost(cost)}</>}
    </span>
  );
}
