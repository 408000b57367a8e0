import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/preact';

// Each test imports a fresh MessageBody module: its chunk state (loaded or not,
// the lazy component's status) is module-level.
async function fresh() {
  return import('./MessageBody');
}

describe('MessageBody (the Markdown renderer loaded on first use)', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it('shows the text plain, pre-wrapped, until the renderer has loaded, then as Markdown', async () => {
    const { MessageBody } = await fresh();
    const { container } = render(<MessageBody text={'2 + 2 = **4**\n\nnext'} />);
    const plain = container.querySelector('.md.md-plain');
    expect(plain?.textContent).toBe('2 + 2 = **4**\n\nnext');
    expect((await screen.findByText('4')).tagName).toBe('STRONG');
    expect(container.querySelector('.md-plain')).toBeNull();
    expect(container.querySelectorAll('.md p')).toHaveLength(2);
  });

  it('renders Markdown on the first render when the chunk was preloaded (no fallback)', async () => {
    const { MessageBody, preloadMarkdown } = await fresh();
    await preloadMarkdown();
    const { container } = render(<MessageBody text={'a *b*'} highlight={false} />);
    expect(container.querySelector('.md-plain')).toBeNull();
    expect(screen.getByText('b').tagName).toBe('EM');
  });
});
