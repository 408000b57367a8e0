// Types of bench/mdfake.mjs for the frontend's stream bench (src/bench/stream.bench.tsx).
export function tokenText(i: number): string;
export function expectedText(n: number): string;
