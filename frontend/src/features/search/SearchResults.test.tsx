import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { useRef } from 'react';
import type { SearchHit } from '../../transport/contract';
import { SearchResults } from './SearchResults';
import { openedHit } from '../../lib/searchText';

const hit = (n: number, extra: Partial<SearchHit> = {}): SearchHit => ({
  threadId: `th-${n}`,
  threadTitle: `Chat ${n}`,
  messageId: `m-${n}`,
  role: 'user',
  parts: [
    { text: 'about the ', match: false },
    { text: 'aardvark', match: true },
  ],
  createdAt: 1,
  rank: 0,
  ...extra,
});

function Host({ hits, onOpen }: { hits: SearchHit[]; onOpen: (h: SearchHit) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  return (
    <>
      <input ref={ref} aria-label="Search conversations" />
      <SearchResults query="aardvark" hits={hits} loading={false} error={null} onOpen={onOpen} inputRef={ref} />
    </>
  );
}

describe('SearchResults', () => {
  it('↓/↑ in the search box move through the hits, Enter opens the active one (the box keeps the focus)', () => {
    const onOpen = vi.fn();
    render(<Host hits={[hit(1), hit(2), hit(3)]} onOpen={onOpen} />);
    const box = screen.getByLabelText('Search conversations');
    box.focus();
    const buttons = within(screen.getByRole('list', { name: 'Search results for aardvark' })).getAllByRole('button');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(buttons[0]!.id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' }); // stays on the last
    expect(box.getAttribute('aria-activedescendant')).toBe(buttons[2]!.id);
    expect(buttons[2]!.className).toContain('is-active');
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ messageId: 'm-2' }));
    expect(document.activeElement).toBe(box);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ messageId: 'm-3' }));
    // The opened hit's words are kept for the thread view to highlight.
    expect(openedHit('m-3')?.terms).toEqual(['aardvark']);
  });

  it('Enter with nothing active opens the first hit; arrows also move between focused hits', () => {
    const onOpen = vi.fn();
    render(<Host hits={[hit(1), hit(2)]} onOpen={onOpen} />);
    const box = screen.getByLabelText('Search conversations');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ messageId: 'm-1' }));
    const buttons = screen.getAllByRole('button');
    buttons[0]!.focus();
    fireEvent.keyDown(buttons[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(buttons[1]);
    fireEvent.keyDown(buttons[1]!, { key: 'ArrowUp' });
    fireEvent.keyDown(buttons[0]!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(box);
  });

  it('never hides the match behind "…": a long lead before it is cut', () => {
    const long = hit(1, {
      role: 'tool',
      parts: [
        { text: '{"path":"/home/ada/projects/juncture/docs/notes/2024/summer/travel/list.json","entries":[{"name":"', match: false },
        { text: 'zephyr', match: true },
        { text: '.txt"}]}', match: false },
      ],
    });
    render(<Host hits={[long]} onOpen={() => {}} />);
    const snippet = document.querySelector('.search-hit-snippet')!;
    const text = snippet.textContent!;
    expect(text.startsWith('Tool: …')).toBe(true);
    expect(text.indexOf('zephyr')).toBeLessThan(70);
    expect(within(snippet as HTMLElement).getByText('zephyr').tagName).toBe('MARK');
  });
});
