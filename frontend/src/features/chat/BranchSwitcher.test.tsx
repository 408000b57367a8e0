import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { useState } from 'react';
import { BranchSwitcher } from './BranchSwitcher';
import type { BranchInfo } from '../../state/types';

const branch = (index: number, count = 3): BranchInfo => ({
  index,
  count,
  siblings: Array.from({ length: count }, (_, i) => `m${i + 1}`),
});

describe('BranchSwitcher', () => {
  it('shows "‹ 2/3 ›" with a "Version 2 of 3" label and selects the neighbours', () => {
    const onSelect = vi.fn();
    const { container } = render(<BranchSwitcher branch={branch(2)} onSelect={onSelect} />);
    expect(screen.getByRole('group', { name: 'Versions' })).toBeTruthy();
    expect(container.textContent).toContain('2/3');
    expect(screen.getByText('Version 2 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Previous version' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next version' }));
    expect(onSelect.mock.calls).toEqual([['m1'], ['m3']]);
  });

  it('is disabled at the ends', () => {
    const onSelect = vi.fn();
    const { rerender } = render(<BranchSwitcher branch={branch(1)} onSelect={onSelect} />);
    const prev = () => screen.getByRole('button', { name: 'Previous version' }) as HTMLButtonElement;
    const next = () => screen.getByRole('button', { name: 'Next version' }) as HTMLButtonElement;
    expect(prev().disabled).toBe(true);
    expect(next().disabled).toBe(false);
    fireEvent.click(prev());
    expect(onSelect).not.toHaveBeenCalled();
    rerender(<BranchSwitcher branch={branch(3)} onSelect={onSelect} />);
    expect(prev().disabled).toBe(false);
    expect(next().disabled).toBe(true);
    fireEvent.keyDown(next(), { key: 'ArrowRight' });
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('is disabled, with the reason as its title, while the thread runs', () => {
    const onSelect = vi.fn();
    render(<BranchSwitcher branch={branch(2)} onSelect={onSelect} disabledReason="Wait until the answer is finished" />);
    for (const name of ['Previous version', 'Next version']) {
      const b = screen.getByRole('button', { name }) as HTMLButtonElement;
      expect(b.disabled).toBe(true);
      expect(b.title).toBe('Wait until the answer is finished');
    }
    fireEvent.keyDown(screen.getByRole('group'), { key: 'ArrowLeft' });
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('works from the keyboard: ←/→ on the group, and the focus stays on the switcher of the version shown', () => {
    // The row of a version is replaced by its sibling's (another message, another switcher).
    function Host() {
      const [at, setAt] = useState(1);
      const b = branch(at, 2);
      return <BranchSwitcher key={b.siblings[at - 1]} branch={b} onSelect={(id) => setAt(Number(id.slice(1)))} />;
    }
    render(<Host />);
    const next = screen.getByRole('button', { name: 'Next version' });
    next.focus();
    fireEvent.keyDown(next, { key: 'ArrowRight' });
    expect(screen.getByText('Version 2 of 2')).toBeTruthy();
    // "Next" is disabled at the end: the focus goes to "Previous" of the new switcher.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Previous version' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(screen.getByText('Version 1 of 2')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Next version' }));
    // Enter / Space on a focused button are the button's own click.
    fireEvent.click(document.activeElement!);
    expect(screen.getByText('Version 2 of 2')).toBeTruthy();
  });
});
