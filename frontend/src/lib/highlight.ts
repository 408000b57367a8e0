// Syntax highlighting loaded on demand. The initial bundle holds none of
// highlight.js: a rehype plugin (rehypeLazyHighlight) highlights the code
// blocks whose grammar is already loaded and reports the others in
// `missing`; the caller loads them (ensureLanguages) and renders again.
//
// Once loaded, the output is exactly rehype-highlight's with { detect: false }
// and lowlight's common grammars (what Markdown.tsx used before): the same
// language lookup (class "language-x" / "lang-x", "no-highlight"), the "hljs"
// class, the grammars a grammar embeds registered with it.
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { LANGUAGES } from './highlightLanguages';

type Lowlight = ReturnType<typeof import('./highlightCore').newLowlight>;

const byName = new Map<string, string>(); // lower-case name or alias -> grammar
for (const [name, e] of Object.entries(LANGUAGES)) {
  byName.set(name, name);
  for (const a of e.aliases) byName.set(a.toLowerCase(), name);
}

let lowlight: Lowlight | null = null;
let core: Promise<Lowlight> | null = null;
const grammars = new Map<string, Promise<void>>();

/** The grammar (and what it embeds) a fence name needs; [] for an unknown name. */
function closure(lang: string): string[] {
  const out: string[] = [];
  const add = (g: string) => {
    if (out.includes(g)) return;
    out.push(g);
    for (const u of LANGUAGES[g]?.uses ?? []) add(u);
  };
  const g = byName.get(lang.toLowerCase());
  if (g) add(g);
  return out;
}

function ready(ll: Lowlight, lang: string): boolean {
  return closure(lang).every((g) => ll.registered(g));
}

function loadCore(): Promise<Lowlight> {
  core ??= import('./highlightCore').then((m) => (lowlight = m.newLowlight()));
  return core;
}

function loadGrammar(ll: Lowlight, name: string): Promise<void> {
  let p = grammars.get(name);
  if (!p) {
    const entry = LANGUAGES[name];
    p = entry
      ? entry.load().then((m) => {
          if (!ll.registered(name)) ll.register(name, m.default);
        })
      : Promise.resolve();
    p.catch(() => grammars.delete(name)); // a failed chunk load may be retried later
    grammars.set(name, p);
  }
  return p;
}

/** Loads the highlighter and the grammars the fence names need. */
export async function ensureLanguages(langs: Iterable<string>): Promise<void> {
  const ll = await loadCore();
  const names = new Set<string>();
  for (const l of langs) for (const g of closure(l)) names.add(g);
  await Promise.all([...names].map((g) => loadGrammar(ll, g)));
}

/** True once ensureLanguages has loaded the core (for tests). */
export function highlighterLoaded(): boolean {
  return lowlight !== null;
}

export interface LazyHighlightOptions {
  /** Filled with the fence names of code blocks left plain because their grammar is not loaded yet. */
  missing: Set<string>;
}

function language(node: Element): string | false | undefined {
  const list = node.properties.className;
  if (!Array.isArray(list)) return undefined;
  let name: string | undefined;
  for (const item of list) {
    const value = String(item);
    if (value === 'no-highlight' || value === 'nohighlight') return false;
    if (!name && value.slice(0, 5) === 'lang-') name = value.slice(5);
    if (!name && value.slice(0, 9) === 'language-') name = value.slice(9);
  }
  return name;
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function visit(node: Root | Element, parent: Root | Element | null, fn: (node: Element, parent: Root | Element | null) => void) {
  if (node.type === 'element') fn(node, parent);
  for (const child of node.children as RootContent[]) {
    if (child.type === 'element') visit(child, node, fn);
  }
}

/** The rehype plugin (see the file comment). */
export function rehypeLazyHighlight(options: LazyHighlightOptions) {
  const { missing } = options;
  return (tree: Root) => {
    visit(tree, null, (node, parent) => {
      if (node.tagName !== 'code' || !parent || parent.type !== 'element' || parent.tagName !== 'pre') return;
      const lang = language(node);
      if (!lang) return; // no language, or no-highlight (detect: false)
      const ll = lowlight;
      if (!ll || !ready(ll, lang)) {
        missing.add(lang);
        return;
      }
      let cls = node.properties.className;
      if (!Array.isArray(cls)) node.properties.className = cls = [];
      if (!cls.includes('hljs')) cls.unshift('hljs');
      let result: Root;
      try {
        result = ll.highlight(lang, textOf(node));
      } catch (error) {
        if (error instanceof Error && /Unknown language/.test(error.message)) return;
        throw error;
      }
      if (result.children.length > 0) node.children = result.children as ElementContent[];
    });
  };
}
