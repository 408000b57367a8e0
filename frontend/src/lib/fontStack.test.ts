import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FONT_PINS_KEY, type FontPinCache, pinFontStacks, splitFamilies } from './fontStack';

// jsdom lays nothing out: a fake engine measures text by the first family of
// its font-family that is "installed" (the generics always are).
function fakeEngine(installed: readonly string[]) {
  const widths: Record<string, number> = { serif: 300, monospace: 400, 'sans-serif': 280 };
  installed.forEach((f, i) => (widths[f] = 310 + i));
  const probed: string[] = [];
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const fams = splitFamilies(this.style.fontFamily).map((f) => f.replace(/^['"]|['"]$/g, ''));
    probed.push(fams[0] ?? '');
    const hit = fams.find((f) => f in widths);
    return { width: hit ? widths[hit] : 0 } as DOMRect;
  });
  return probed;
}

function setStacks(ui: string, mono: string) {
  document.documentElement.style.cssText = '';
  const style = document.createElement('style');
  style.id = 'stacks';
  style.textContent = `:root { --font-ui: ${ui}; --font-mono: ${mono}; }`;
  document.head.append(style);
}

const UI = "system-ui, -apple-system, 'Segoe UI', Roboto, Ubuntu, Cantarell, 'Noto Sans', Arial,\n    sans-serif";
const MONO = "ui-monospace, 'SF Mono', Menlo, 'DejaVu Sans Mono', 'Liberation Mono', monospace";

// Each pinFontStacks test starts from the stacks UI and MONO, no pin and
// no fake engine, and leaves none behind.
function withStacks() {
  beforeEach(() => setStacks(UI, MONO));
  afterEach(() => {
    vi.restoreAllMocks();
    document.getElementById('stacks')?.remove();
    document.documentElement.style.cssText = '';
  });
}

const pinned = (name: string) => document.documentElement.style.getPropertyValue(name);

describe('splitFamilies', () => {
  it('splits on commas outside quotes and keeps the quotes', () => {
    expect(splitFamilies(" system-ui, 'Segoe UI',\n  \"A, B\" , sans-serif ")).toEqual(['system-ui', "'Segoe UI'", '"A, B"', 'sans-serif']);
  });
});

describe('pinFontStacks', () => {
  withStacks();

  it('drops the families before the first one installed and keeps the rest as written', () => {
    fakeEngine(['Cantarell', 'DejaVu Sans Mono']);
    pinFontStacks();
    expect(pinned('--font-ui')).toBe("Cantarell, 'Noto Sans', Arial, sans-serif");
    expect(pinned('--font-mono')).toBe("'DejaVu Sans Mono', 'Liberation Mono', monospace");
  });

  it('leaves the generic alone when no named family is installed', () => {
    fakeEngine([]);
    pinFontStacks();
    expect(pinned('--font-ui')).toBe('sans-serif');
    expect(pinned('--font-mono')).toBe('monospace');
  });

  it('changes nothing when the first family resolves, and probes no further', () => {
    const probed = fakeEngine(['system-ui', 'ui-monospace', 'Roboto']);
    pinFontStacks();
    expect(pinned('--font-ui')).toBe('');
    expect(pinned('--font-mono')).toBe('');
    expect(probed).not.toContain('Roboto');
  });

  it('changes nothing without a layout engine, and leaves no probe behind', () => {
    pinFontStacks(); // jsdom: every width is 0
    expect(pinned('--font-ui')).toBe('');
    expect(document.body.children).toHaveLength(0);
  });
});

describe('pinFontStacks with the last launch kept', () => {
  withStacks();
  // A storage and a `later` the test runs by hand.
  function launchCache(items = new Map<string, string>()) {
    const checks: (() => void)[] = [];
    const cache: FontPinCache = {
      storage: { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) },
      later: (check) => void checks.push(check),
    };
    return { items, checks, cache };
  }
  const relaunch = () => (document.documentElement.style.cssText = '');

  it('probes on the first launch, then applies the kept result without probing', () => {
    const { items, checks, cache } = launchCache();
    fakeEngine(['Cantarell', 'DejaVu Sans Mono']);
    pinFontStacks(document, undefined, cache);
    expect(pinned('--font-ui')).toBe("Cantarell, 'Noto Sans', Arial, sans-serif");
    expect(checks).toHaveLength(0); // nothing to check again: it just probed
    expect(items.has(FONT_PINS_KEY)).toBe(true);

    relaunch();
    vi.restoreAllMocks();
    const probed = fakeEngine(['Cantarell', 'DejaVu Sans Mono']);
    pinFontStacks(document, undefined, cache);
    expect(probed).toEqual([]); // no layout on the way to the first render
    expect(pinned('--font-ui')).toBe("Cantarell, 'Noto Sans', Arial, sans-serif");
    expect(pinned('--font-mono')).toBe("'DejaVu Sans Mono', 'Liberation Mono', monospace");
    expect(checks).toHaveLength(1);
    const before = items.get(FONT_PINS_KEY);
    checks.forEach((check) => check());
    expect(probed.length).toBeGreaterThan(0); // the check probes, later
    expect(items.get(FONT_PINS_KEY)).toBe(before);
    expect(pinned('--font-ui')).toBe("Cantarell, 'Noto Sans', Arial, sans-serif");
  });

  it('takes up a font installed since the last launch when it checks again', () => {
    const { items, checks, cache } = launchCache();
    fakeEngine(['Cantarell']);
    pinFontStacks(document, undefined, cache);
    relaunch();
    vi.restoreAllMocks();
    fakeEngine(['Roboto', 'Cantarell', 'ui-monospace']); // installed since
    pinFontStacks(document, undefined, cache);
    expect(pinned('--font-ui')).toBe("Cantarell, 'Noto Sans', Arial, sans-serif"); // the kept result first
    checks.forEach((check) => check());
    expect(pinned('--font-ui')).toBe("Roboto, Ubuntu, Cantarell, 'Noto Sans', Arial, sans-serif");
    expect(pinned('--font-mono')).toBe(''); // its first family resolves now: as written
    relaunch();
    vi.restoreAllMocks();
    const probed = fakeEngine([]);
    pinFontStacks(document, undefined, cache);
    expect(probed).toEqual([]);
    expect(pinned('--font-ui')).toBe("Roboto, Ubuntu, Cantarell, 'Noto Sans', Arial, sans-serif");
    expect(JSON.parse(items.get(FONT_PINS_KEY) ?? '{}')['--font-mono'].to).toBe('');
  });

  it('probes again when the stylesheet changed its stacks', () => {
    const { cache } = launchCache();
    fakeEngine(['Cantarell', 'DejaVu Sans Mono']);
    pinFontStacks(document, undefined, cache);
    relaunch();
    document.getElementById('stacks')?.remove();
    setStacks("Inter, 'Noto Sans', sans-serif", MONO);
    vi.restoreAllMocks();
    const probed = fakeEngine(['Noto Sans', 'DejaVu Sans Mono']);
    pinFontStacks(document, undefined, cache);
    expect(probed).toContain('Inter');
    expect(pinned('--font-ui')).toBe("'Noto Sans', sans-serif");
  });
});

// What the storage holds is never applied unless it only drops leading
// families of the stack the stylesheet wrote; otherwise the launch probes.
describe('pinFontStacks with a hostile or broken kept result', () => {
  withStacks();
  const entry = (to: string) => JSON.stringify({ '--font-ui': { from: uiWritten(), to }, '--font-mono': { from: monoWritten(), to: '' } });
  function uiWritten() {
    return getComputedStyle(document.documentElement).getPropertyValue('--font-ui');
  }
  function monoWritten() {
    return getComputedStyle(document.documentElement).getPropertyValue('--font-mono');
  }

  it.each([
    ['not JSON', () => '{"--font-ui":'],
    ['not an object', () => '"sans-serif"'],
    ['null', () => 'null'],
    ['a value that is no tail of the stack', () => entry('Comic Sans MS, sans-serif')],
    ['a value smuggling a declaration', () => entry("sans-serif; background: url('https://x.example/')")],
    ['the whole stack reordered', () => entry("Arial, 'Noto Sans', sans-serif")],
    ['a variable missing', () => JSON.stringify({ '--font-ui': { from: uiWritten(), to: '' } })],
    ['from of another type', () => JSON.stringify({ '--font-ui': { from: 1, to: '' }, '--font-mono': { from: monoWritten(), to: '' } })],
    ['an entry from the prototype', () => '{"__proto__": {"from": "x", "to": ""}}'],
    ['past the size bound', () => entry('sans-serif') + ' '.repeat(9000)],
  ])('probes when the kept result is %s', (_what, raw) => {
    const items = new Map([[FONT_PINS_KEY, raw()]]);
    const checks: (() => void)[] = [];
    const probed = fakeEngine(['Cantarell', 'DejaVu Sans Mono']);
    pinFontStacks(document, undefined, { storage: { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) }, later: (c) => void checks.push(c) });
    expect(probed.length).toBeGreaterThan(0);
    expect(checks).toHaveLength(0);
    expect(pinned('--font-ui')).toBe("Cantarell, 'Noto Sans', Arial, sans-serif");
    expect(JSON.parse(items.get(FONT_PINS_KEY) ?? '{}')['--font-ui'].to).toBe("Cantarell, 'Noto Sans', Arial, sans-serif");
  });

  it('applies a kept tail of the stack', () => {
    const items = new Map([[FONT_PINS_KEY, entry('Arial, sans-serif')]]);
    const probed = fakeEngine(['Cantarell']);
    pinFontStacks(document, undefined, { storage: { getItem: (k) => items.get(k) ?? null, setItem: () => {} }, later: () => {} });
    expect(probed).toEqual([]);
    expect(pinned('--font-ui')).toBe('Arial, sans-serif');
  });

  it('probes every launch when the storage refuses to read or write', () => {
    const probed = fakeEngine(['Cantarell']);
    const refusing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    pinFontStacks(document, undefined, { storage: refusing, later: () => {} });
    expect(probed.length).toBeGreaterThan(0);
    expect(pinned('--font-ui')).toBe("Cantarell, 'Noto Sans', Arial, sans-serif");
  });
});
