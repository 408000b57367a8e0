import { Suspense, lazy, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import type { MarkdownProps } from './markdown/Markdown';

// The Markdown renderer (react-markdown, remark-gfm and the unified stack) is
// not needed by an empty chat: it is a chunk of its own, loaded when a message
// first needs it. preloadMarkdown() starts the load early (on send, and when a
// thread with messages is shown), so the first render of an answer almost never
// waits; until the chunk is there, the text is shown as plain pre-wrapped text
// in the same container. Opening a stored thread waits for it instead
// (ChatView keeps "Loading…" up, useMarkdownLoaded), so a reopened answer
// does not change shape under the reader.

type MarkdownModule = typeof import('./markdown/Markdown');

let loaded: MarkdownModule | null = null;
let loading: Promise<MarkdownModule> | null = null;

/** Starts loading the Markdown chunk (once); resolves to the module. */
export function preloadMarkdown(): Promise<MarkdownModule> {
  if (!loading) {
    const p = import('./markdown/Markdown').then((m) => (loaded = m));
    p.catch(() => {
      if (loading === p) loading = null; // a failed chunk load may be retried later
    });
    loading = p;
  }
  return loading;
}

/** The Markdown chunk is loaded: a MessageBody renders Markdown on its first render. */
export function markdownLoaded(): boolean {
  return loaded !== null;
}

/**
 * True once the Markdown chunk has loaded (or failed to: the text then stays
 * plain); while `want` is set and it has not, starts loading it.
 */
export function useMarkdownLoaded(want: boolean): boolean {
  const [done, setDone] = useState(loaded !== null);
  useEffect(() => {
    if (!want || done) return;
    let live = true;
    const settle = () => {
      if (live) setDone(true);
    };
    preloadMarkdown().then(settle, settle);
    return () => {
      live = false;
    };
  }, [want, done]);
  return done || loaded !== null;
}

/** The message text before the Markdown chunk has arrived (or if it cannot load). */
function PlainBody({ text }: MarkdownProps): ReactNode {
  return <div className="md md-plain">{text}</div>;
}

type Loaded = { default: ComponentType<MarkdownProps> };

const LazyMarkdown = lazy((): Promise<Loaded> => {
  // Already loaded (preloaded before the first message rendered): a thenable
  // that calls back at once, so React uses the component on this very render
  // instead of showing the fallback for a frame.
  if (loaded) {
    const m: Loaded = { default: loaded.Markdown };
    return { then: (ok: (v: Loaded) => unknown) => ok(m) } as unknown as Promise<Loaded>;
  }
  return preloadMarkdown().then(
    (mod) => ({ default: mod.Markdown }),
    () => ({ default: PlainBody }), // the chunk did not load: the text stays plain
  );
});

/** A message body rendered as Markdown (the renderer loaded on first use). */
export function MessageBody({ text, highlight }: MarkdownProps): ReactNode {
  return (
    <Suspense fallback={<PlainBody text={text} />}>
      <LazyMarkdown text={text} highlight={highlight} />
    </Suspense>
  );
}
