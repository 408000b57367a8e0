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
 * Where the last launch's result is kept, and when to check it again. The
 * probe is ~50 ms of every launch's way to the composer (fontconfig's
 * failed look-ups); the installed fonts rarely change between launches.
 * A launch that finds a result for the same stacks applies it at once and
 * probes again later (`later`), off the start-up path: a font installed or
 * removed since is taken up then, and by the next launch from the start.
 */
export interface FontPinCache {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  later: (check: () => void) => void;
}

/** The storage key of the kept result (window.localStorage). */
export const FONT_PINS_KEY = 'juncture.fontPins';

// A kept result longer than this is not a font stack: ignored.
const MAX_KEPT = 8192;

type Pins = Record<string, string>; // variable → its value to set ('' = as written)

/**
 * Drops the families each variable names before the first one the engine
 * resolves (an inline style on <html>). A family resolves when text in
 * "family, serif" or "family, monospace" measures other than in the generic
 * alone. Families are tried in order and no further than the first that
 * resolves; with no layout (every width 0) nothing changes. With a cache,
 * a result kept for the same stacks is applied without probing (see
 * FontPinCache).
 */
export function pinFontStacks(
  doc: Document = document,
  vars: readonly string[] = ['--font-ui', '--font-mono'],
  cache?: FontPinCache,
): void {
  const root = doc.documentElement;
  const view = doc.defaultView;
  if (!doc.body || !view) return;
  // The stacks as the stylesheet writes them, read before any is pinned.
  const style = view.getComputedStyle(root);
  const written: Pins = {};
  for (const name of vars) written[name] = style.getPropertyValue(name);
  const apply = (pins: Pins) => {
    for (const name of vars) {
      if (pins[name]) root.style.setProperty(name, pins[name]);
      else root.style.removeProperty(name);
    }
  };
  const kept = cache ? readKept(cache.storage, written) : null;
  if (kept && cache) {
    apply(kept);
    cache.later(() => {
      const now = probeStacks(doc, written);
      if (!now || samePins(now, kept)) return;
      apply(now);
      keep(cache.storage, written, now);
    });
    return;
  }
  const pins = probeStacks(doc, written);
  if (!pins) return;
  apply(pins);
  if (cache) keep(cache.storage, written, pins);
}

// probeStacks measures each stack's families in order: the value each
// variable should have, or null with no layout engine.
function probeStacks(doc: Document, written: Pins): Pins | null {
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
    if (!serif || !mono) return null; // no layout engine (tests, a hidden frame): keep the stacks
    const pins: Pins = {};
    for (const [name, value] of Object.entries(written)) {
      const fams = splitFamilies(value);
      // The last family is the generic the stack falls back to: never probed.
      let from = 0;
      while (from < fams.length - 1 && width(`${fams[from]}, serif`) === serif && width(`${fams[from]}, monospace`) === mono) from++;
      pins[name] = from > 0 ? fams.slice(from).join(', ') : '';
    }
    return pins;
  } finally {
    box.remove();
  }
}

function samePins(a: Pins, b: Pins): boolean {
  return Object.keys(a).every((k) => a[k] === b[k]) && Object.keys(b).every((k) => a[k] === b[k]);
}

// isTail: value is the stack with some of its leading families dropped,
// as probeStacks writes it. Nothing else kept is ever applied: what the
// storage holds can only shorten a stack the stylesheet wrote.
function isTail(value: string, stack: string): boolean {
  if (value === '') return true;
  const fams = splitFamilies(stack);
  for (let k = 1; k < fams.length; k++) if (fams.slice(k).join(', ') === value) return true;
  return false;
}

// readKept returns the kept pins when they were made for exactly these
// stacks; null when none are kept, they are for other stacks (the app
// changed its fonts) or they cannot be read.
function readKept(storage: FontPinCache['storage'], written: Pins): Pins | null {
  let raw: string | null;
  try {
    raw = storage.getItem(FONT_PINS_KEY);
  } catch {
    return null;
  }
  if (!raw || raw.length > MAX_KEPT) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const entries = parsed as Record<string, unknown>;
  const pins: Pins = {};
  for (const [name, stack] of Object.entries(written)) {
    const e = Object.prototype.hasOwnProperty.call(entries, name) ? entries[name] : undefined;
    if (typeof e !== 'object' || e === null) return null;
    const { from, to } = e as { from?: unknown; to?: unknown };
    if (from !== stack || typeof to !== 'string' || !isTail(to, stack)) return null;
    pins[name] = to;
  }
  return pins;
}

function keep(storage: FontPinCache['storage'], written: Pins, pins: Pins): void {
  const out: Record<string, { from: string; to: string }> = {};
  for (const [name, stack] of Object.entries(written)) out[name] = { from: stack, to: pins[name] ?? '' };
  try {
    storage.setItem(FONT_PINS_KEY, JSON.stringify(out));
  } catch {
    // Full or refused storage: the next launch probes again.
  }
}
