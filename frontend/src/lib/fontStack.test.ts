import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pinFontStacks, splitFamilies } from './fontStack';

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

describe('splitFamilies', () => {
  it('splits on commas outside quotes and keeps the quotes', () => {
    expect(splitFamilies(" system-ui, 'Segoe UI',\n  \"A, B\" , sans-serif ")).toEqual(['system-ui', "'Segoe UI'", '"A, B"', 'sans-serif']);
  });
});

describe('pinFontStacks', () => {
  beforeEach(() => setStacks(UI, MONO));
  afterEach(() => {
    vi.restoreAllMocks();
    document.getElementById('stacks')?.remove();
    document.documentElement.style.cssText = '';
  });
  const pinned = (name: string) => document.documentElement.style.getPropertyValue(name);

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
