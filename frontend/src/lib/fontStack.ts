// The page's font stacks (--font-ui, --font-mono in styles/global.css)
// name the system fonts of every platform: San Francisco, Segoe UI,
// Cantarell… WebKitGTK resolves a font-family list anew for each font
// description the page uses (each size and weight): every family before the
// first one installed costs a fontconfig match that fails, about 2 ms on
// 2 cores. On a Linux desktop with none of the named families, the first
// screen paid ~15 of them per description, ~150 ms of its first layout,
// before the composer could take a key (issue 26's start-up).
//
// Each family is tried here once, before the first render, and the ones
// before the first that resolves are dropped from the variable. What every
// piece of text is drawn with stays the same: the engine skips a family it
// cannot resolve at every size and weight alike, and the families from the
// first resolved one on (the rest serve glyphs it lacks) are kept as written.

/**
 * The families of a CSS font-family value, in order, as written (quotes kept).
 * A comma separates families only outside quotes and parentheses and when
 * not escaped: a theme's `var(--brand, Arial)` or a quoted `"A\"B, C"` is one
 * entry, since splitting it leaves a value the engine rejects as a whole.
 */
export function splitFamilies(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  let depth = 0;
  let escaped = false;
  for (const ch of value) {
    if (escaped) {
      escaped = false;
    } else if (ch === '\\') {
      escaped = true;
    } else if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      if (depth > 0) depth--;
    } else if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    } else if (/\s/.test(ch)) {
      // Runs of spaces between unquoted words are one space; inside
      // quotes they are part of the name and kept as written.
      if (!cur.endsWith(' ')) cur += ' ';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

// Wide and narrow glyphs, so two different fonts measure differently.
const PROBE_TEXT = 'mmmmmmmmmmlllllllllli WQ@#0';

/**
 * Drops the families each variable names before the first one the engine
 * resolves (an inline style on <html>). A family resolves when text in
 * "family, serif" or "family, monospace" measures other than in the generic
 * alone. Families are tried in order and no further than the first that
 * resolves; with no layout (every width 0) nothing changes.
 */
export function pinFontStacks(doc: Document = document, vars: readonly string[] = ['--font-ui', '--font-mono']): void {
  const root = doc.documentElement;
  const view = doc.defaultView;
  if (!doc.body || !view) return;
  const style = view.getComputedStyle(root);
  const box = doc.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = 'position:absolute;top:0;left:-10000px;visibility:hidden;white-space:nowrap;font-size:32px;font-weight:400';
  const width = (family: string) => {
    const span = doc.createElement('span');
    span.style.fontFamily = family;
    span.textContent = PROBE_TEXT;
    box.appendChild(span);
    box.appendChild(doc.createElement('br'));
    return span.getBoundingClientRect().width;
  };
  doc.body.appendChild(box);
  try {
    const serif = width('serif');
    const mono = width('monospace');
    if (!serif || !mono) return; // no layout engine (tests, a hidden frame): keep the stacks
    for (const name of vars) {
      const fams = splitFamilies(style.getPropertyValue(name));
      // The last family is the generic the stack falls back to: never probed.
      let from = 0;
      while (from < fams.length - 1 && width(`${fams[from]}, serif`) === serif && width(`${fams[from]}, monospace`) === mono) from++;
      if (from > 0) root.style.setProperty(name, fams.slice(from).join(', '));
    }
  } finally {
    box.remove();
  }
}
