// Exact merging of a delta into the text a view already has. Juncture gives
// every delta the offset where it starts (UTF-16 code units, what a
// JavaScript string counts): the part already shown (a snapshot that
// includes it, a delta seen twice) is skipped, and a delta that starts
// beyond the end means something was missed.

export interface Merged {
  text: string;
  /** The delta starts after the end of `have`: a part is missing. */
  gap: boolean;
}

/** Appends the part of `delta` (starting at `offset`, if known) that `have` lacks. */
export function mergeDelta(have: string, delta: string, offset: number | undefined): Merged {
  if (offset === undefined) return { text: have + delta, gap: false };
  const end = offset + delta.length;
  if (end <= have.length) return { text: have, gap: false };
  if (offset <= have.length) return { text: have + delta.slice(have.length - offset), gap: false };
  return { text: have + delta, gap: true };
}
