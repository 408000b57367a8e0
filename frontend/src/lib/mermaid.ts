// Mermaid diagrams in chat Markdown. mermaid (with d3, dagre and the rest)
// is far bigger than everything else the chat needs, so it is its own set of
// chunks, imported the first time a ```mermaid block is rendered and never
// by a chat without one.
//
// Model text is not trusted. mermaid runs with securityLevel "strict"
// (labels are HTML-escaped, `click` callbacks and links are disabled, the
// SVG is sanitized with DOMPurify) and a diagram's %%{init}%% directive may
// not change that, nor the theme or the DOMPurify settings. The SVG is then
// parsed in an inert document (DOMParser: no script runs, nothing loads),
// stripped of anything active, and the Markdown component puts it in a
// shadow root, so the diagram's own <style> cannot restyle the app.
import type { Root as MdastRoot, RootContent as MdastContent } from 'mdast';

type Mermaid = (typeof import('mermaid'))['default'];

export type MermaidResult = { ok: true; svg: SVGSVGElement } | { ok: false; error: string };

let loading: Promise<Mermaid> | null = null;
let requested = false;

/** True once a diagram asked for mermaid (tests: a chat without diagrams never loads it). */
export function mermaidRequested(): boolean {
  return requested;
}

function loadMermaid(): Promise<Mermaid> {
  requested = true;
  if (!loading) {
    const p = import('mermaid').then((m) => m.default);
    p.catch(() => {
      if (loading === p) loading = null; // a failed chunk load may be retried later
    });
    loading = p;
  }
  return loading;
}

// What a diagram's directive may not override (mermaid's own list plus the
// look and the sanitizer).
const SECURE = [
  'secure', 'securityLevel', 'startOnLoad', 'maxTextSize', 'maxEdges', 'suppressErrorRendering',
  'theme', 'darkMode', 'themeCSS', 'dompurifyConfig', 'htmlLabels', 'arrowMarkerAbsolute',
  'legacyMathML', 'forceLegacyMathML', 'deterministicIds', 'deterministicIDSeed',
];

// Rendered diagrams by theme and source: a message scrolled back into view,
// or a thread opened again, shows its diagrams without running mermaid.
const cache = new Map<string, MermaidResult>();
const CACHE_SIZE = 64;
const cacheKey = (source: string, dark: boolean) => `${dark ? 'dark' : 'light'}\n${source}`;

/** A diagram already rendered (or already failed) for this source and theme. */
export function cachedMermaid(source: string, dark: boolean): MermaidResult | undefined {
  return cache.get(cacheKey(source, dark));
}

function remember(key: string, r: MermaidResult) {
  cache.delete(key);
  cache.set(key, r);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
}

let queue: Promise<unknown> = Promise.resolve();
let seq = 0;

/**
 * Renders one diagram. Renders run one at a time: mermaid's configuration
 * (the theme) is global, set just before each render.
 */
export function renderMermaid(source: string, dark: boolean): Promise<MermaidResult> {
  const key = cacheKey(source, dark);
  const hit = cache.get(key);
  if (hit) return Promise.resolve(hit);
  const run = async (): Promise<MermaidResult> => {
    let mermaid: Mermaid;
    try {
      mermaid = await loadMermaid();
    } catch {
      return { ok: false, error: 'the diagram renderer did not load.' }; // not cached: may be retried
    }
    const id = `juncture-mermaid-${++seq}`;
    let r: MermaidResult;
    try {
      mermaid.initialize({
        startOnLoad: false,
        securityLevel: 'strict',
        suppressErrorRendering: true, // no "Syntax error" bomb image: we show the source instead
        theme: dark ? 'dark' : 'default',
        darkMode: dark,
        secure: SECURE,
        maxTextSize: 20000,
        maxEdges: 500,
        fontFamily: 'inherit',
        logLevel: 'fatal',
        // Edge labels sit on the diagram panel's colour (Markdown.css), not on
        // mermaid's grey boxes, which are dim in the dark theme.
        themeVariables: panelColour() ? { edgeLabelBackground: panelColour() } : {},
      });
      const { svg } = await mermaid.render(id, source);
      const el = inertSvg(svg);
      r = el ? { ok: true, svg: el } : { ok: false, error: 'the renderer returned no SVG.' };
    } catch (e) {
      r = { ok: false, error: errorText(e) };
    } finally {
      // mermaid renders in a temporary element in <body>; after an error it may stay.
      document.getElementById(id)?.remove();
      document.getElementById(`d${id}`)?.remove();
    }
    remember(key, r);
    return r;
  };
  const p = queue.then(run, run);
  queue = p.catch(() => {});
  return p;
}

/** The app's --bg-soft (the diagram panel), when it is a plain hex colour mermaid can read. */
function panelColour(): string | undefined {
  const v = getComputedStyle(document.documentElement).getPropertyValue('--bg-soft').trim();
  return /^#[0-9a-f]{3,8}$/i.test(v) ? v : undefined;
}

/**
 * The first line of an error ("Parse error on line 2:"), with what the
 * parser found instead if it says so ("… got 'EOF'").
 */
function errorText(e: unknown): string {
  const raw = e instanceof Error ? e.message : String(e);
  const first = (raw.split('\n').find((l) => l.trim()) ?? 'unknown error').trim().replace(/:$/, '');
  const got = /got '([^']+)'/.exec(raw)?.[1];
  const line = got ? `${first}: unexpected ${got === 'EOF' ? 'end of the diagram' : `'${got}'`}` : first;
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

// Nothing in a diagram may run, load or navigate.
const DROP = new Set([
  'script', 'iframe', 'frame', 'object', 'embed', 'link', 'meta', 'base', 'form', 'input', 'button',
  'textarea', 'select', 'img', 'image', 'video', 'audio', 'source', 'set', 'animate', 'animatemotion',
  'animatetransform', 'discard',
]);
const URL_ATTRS = new Set(['href', 'xlink:href', 'src', 'srcset', 'action', 'formaction', 'data', 'poster', 'background']);

/**
 * Parses mermaid's SVG markup in an inert document and removes what could
 * act: script-like elements, event handlers and URLs other than #fragments.
 * The element belongs to the inert document; import a copy to show it.
 */
export function inertSvg(markup: string): SVGSVGElement | null {
  const doc = new DOMParser().parseFromString(markup, 'text/html');
  const svg = doc.body.querySelector('svg');
  if (!svg) return null;
  for (const el of [svg, ...svg.querySelectorAll('*')]) {
    const tag = el.localName.toLowerCase();
    if (DROP.has(tag)) {
      el.remove();
      continue;
    }
    if (tag === 'a') {
      // A node with a link ("click A href …"): keep what it shows, drop the link.
      el.replaceWith(...el.childNodes);
    }
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || (URL_ATTRS.has(name) && !attr.value.trim().startsWith('#'))) {
        el.removeAttribute(attr.name);
      }
    }
  }
  return svg;
}

/**
 * remark plugin: marks each ```mermaid block `data-fence="closed"` once its
 * closing fence has arrived (or something follows it), else "open". A
 * message that is still streaming renders an open block as code; a closed
 * one is final and can be drawn.
 */
export function remarkFenceState() {
  return (tree: MdastRoot, file: { value?: unknown }) => {
    const src = typeof file.value === 'string' ? file.value : String(file.value ?? '');
    const walk = (nodes: MdastContent[]) => {
      for (const node of nodes) {
        if (node.type === 'code') {
          if (node.lang?.toLowerCase() !== 'mermaid') continue;
          const start = node.position?.start.offset ?? 0;
          const end = node.position?.end.offset ?? src.length;
          const closed = fenceClosed(src.slice(start, end)) || src.slice(end).trim() !== '';
          node.data = { ...node.data, hProperties: { ...node.data?.hProperties, dataFence: closed ? 'closed' : 'open' } };
        } else if ('children' in node) {
          walk(node.children as MdastContent[]);
        }
      }
    };
    walk(tree.children);
  };
}

/** The fenced block's source ends with a closing fence at least as long as its opening one. */
export function fenceClosed(block: string): boolean {
  const lines = block.split(/\r?\n|\r/);
  const open = /^[\s>]*(`{3,}|~{3,})/.exec(lines[0] ?? '');
  if (!open || lines.length < 2) return false;
  const fence = open[1]!;
  const last = (lines[lines.length - 1] ?? '').replace(/^[\s>]*/, '').trimEnd();
  return last.length >= fence.length && [...last].every((c) => c === fence[0]);
}

// The app's theme: data-theme on <html> ("light", "dark"), or the system's
// when it is not set.
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function isDarkTheme(): boolean {
  const t = document.documentElement.dataset.theme;
  if (t === 'dark' || t === 'light') return t === 'dark';
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

export function subscribeTheme(onChange: () => void): () => void {
  const mo = new MutationObserver(onChange);
  mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const mq = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  mq?.addEventListener('change', onChange);
  return () => {
    mo.disconnect();
    mq?.removeEventListener('change', onChange);
  };
}
