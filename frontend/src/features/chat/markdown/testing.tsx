import { expect } from 'vitest';
import { render } from '@testing-library/preact';
import { Markdown, MarkdownWhole } from './Markdown';

// Shared by the Markdown tests: the streamed render (block by block, the
// finished blocks' elements kept) must equal the whole render at every prefix.

/** The HTML of `text` rendered whole, in one pass. */
export function wholeHTML(text: string): string {
  const { container, unmount } = render(<MarkdownWhole text={text} highlight={false} />);
  const html = container.innerHTML;
  unmount();
  return html;
}

/**
 * Streams `text` into one Markdown a character at a time and checks each
 * prefix renders as the whole render of it; returns the container (still
 * mounted: the caller checks what it needs and unmounts with the returned
 * function).
 */
export function streamAsWhole(text: string): { container: Element; unmount: () => void } {
  const view = render(<Markdown text="" highlight={false} />);
  for (let i = 1; i <= text.length; i++) {
    const have = text.slice(0, i);
    view.rerender(<Markdown text={have} highlight={false} />);
    expect(view.container.innerHTML, `prefix ${JSON.stringify(have)}`).toBe(wholeHTML(have));
  }
  return { container: view.container, unmount: view.unmount };
}
