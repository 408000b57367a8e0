import { bench, describe } from 'vitest';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { Markdown, MarkdownWhole } from '../features/chat/markdown/Markdown';
// The desktop bench's Markdown stream (headings, lists, fenced Go and
// TypeScript, a table), the same text bench/mdfake.mjs sends.
import { tokenText } from '../../../bench/mdfake.mjs';

// A streamed answer in the renderer (jsdom): 2,000 tokens of Markdown with
// code blocks arriving at 1,000 tokens/s, so 16 tokens per animation frame,
// rendered after each frame's tokens, as the window does. "whole" parses and
// renders the growing text in one piece every frame (the renderer before the
// block split; the anchor, same run); "blocks" is Markdown as the window uses
// it. Printed: µs per token of each and the ratio.
const TOKENS = 2000;
const PER_FRAME = 16;
const frames: string[] = [];
{
  let s = '';
  for (let i = 0; i < TOKENS; i++) {
    s += tokenText(i);
    if ((i + 1) % PER_FRAME === 0 || i === TOKENS - 1) frames.push(s);
  }
}

const perToken: Record<string, number[]> = { whole: [], blocks: [] };

function stream(kind: 'whole' | 'blocks') {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  const t0 = performance.now();
  for (const text of frames) {
    flushSync(() => root.render(kind === 'whole' ? <MarkdownWhole text={text} highlight={false} /> : <Markdown text={text} highlight={false} />));
  }
  perToken[kind]!.push(((performance.now() - t0) * 1000) / TOKENS);
  if (!host.querySelector('pre')) throw new Error('no code block rendered');
  root.unmount();
  host.remove();
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

describe(`streaming ${TOKENS} tokens of Markdown, ${PER_FRAME} per frame (jsdom)`, () => {
  bench('whole text every frame (anchor)', () => stream('whole'), { time: 4000, iterations: 2 });
  bench('block by block (Markdown)', () => stream('blocks'), {
    time: 4000,
    iterations: 2,
    teardown: (_t, mode) => {
      if (mode !== 'run') return;
      const w = med(perToken.whole!);
      const b = med(perToken.blocks!);
      console.log(`render µs per token: whole ${w.toFixed(1)}, blocks ${b.toFixed(1)}; blocks/whole ${(b / w).toFixed(3)} (${(w / b).toFixed(1)}× less)`);
    },
  });
});
