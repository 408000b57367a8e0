// The end of a streamed answer (issue 26): highlighting turns on, and only
// the blocks with a fence are parsed again; the rest render the same either
// way and are left alone (the window's CPU in the second after an answer).
import { describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/preact';
import { afterPaintRan } from '../../../test/effects';

const parsed: string[] = [];
// Every parse goes through renderMarkdown (render.ts, react-markdown's rendering with a cached processor).
vi.mock('./render', async (importOriginal) => {
  const m = await importOriginal<typeof import('./render')>();
  return {
    ...m,
    renderMarkdown: (text: string, o: Parameters<typeof m.renderMarkdown>[1]) => {
      parsed.push(text);
      return m.renderMarkdown(text, o);
    },
  };
});

const { Markdown, MarkdownWhole } = await import('./Markdown');

describe('TestMarkdownHighlightEndParsesOnlyFences', () => {
  it('re-parses only the fenced blocks when the answer ends, and shows the whole render', async () => {
    const text = '# Title\n\nA paragraph.\n\n```go\nfunc f() {}\n```\n\n- a list\n- of two\n\n| a |\n| - |\n| 1 |\n\nLast words.\n';
    const view = render(<Markdown text="" highlight={false} />);
    for (let i = 1; i <= text.length; i += 7) view.rerender(<Markdown text={text.slice(0, i)} highlight={false} />);
    view.rerender(<Markdown text={text} highlight={false} />);
    parsed.length = 0;
    await act(async () => view.rerender(<Markdown text={text} highlight />));
    // Highlighting is a deferred render, after the frame that showed the end.
    expect(parsed).toEqual([]);
    await afterPaintRan();
    expect(parsed.map((t) => t.trim())).toEqual(['```go\nfunc f() {}\n```']);
    const whole = render(<MarkdownWhole text={text} highlight />);
    expect(view.container.innerHTML).toBe(whole.container.innerHTML);
  });
});
