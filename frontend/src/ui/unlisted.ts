/**
 * The values a select must show beside its listed options: each of `values`
 * that no listed option has, once, in the order given.
 *
 * A select whose value matches none of its options shows a blank box
 * (Preact sets the element's value, and a value no option has selects none),
 * or, once the chosen option is removed, the browser's first option — while
 * the value in state is still what gets used. Rendering these as options of
 * their own, labelled, keeps what the box shows equal to what will be used,
 * and lets the person choose it again after trying another.
 */
export function unlisted(listed: readonly string[], ...values: readonly string[]): string[] {
  const seen = new Set(listed);
  const out: string[] = [];
  for (const v of values) {
    if (seen.has(v)) continue;
    seen.add(v);
    out.push(v);
  }
  return out;
}
