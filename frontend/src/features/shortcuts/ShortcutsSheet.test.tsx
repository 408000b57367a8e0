import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { ShortcutsSheet, isShortcutsKey, SHORTCUTS } from './ShortcutsSheet';

describe('ShortcutsSheet (issue 22 item 14)', () => {
  it('lists every shortcut the issue names', () => {
    const keys = SHORTCUTS.flatMap((s) => s.keys.map((c) => c.join('+')));
    for (const k of ['Ctrl+K', 'Ctrl+N', 'Ctrl+B', 'Ctrl+,', 'Esc', 'Shift+F10', 'F2', '↑', '↓']) expect(keys).toContain(k);
  });

  it('renders the list and closes with its button', () => {
    const onClose = vi.fn();
    render(<ShortcutsSheet open onClose={onClose} />);
    expect(screen.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeTruthy();
    expect(screen.getByText('Search conversations')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close keyboard shortcuts' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('"?" opens it, except where it is typed as text', () => {
    const key = (target: Element, init: KeyboardEventInit = {}) => {
      const e = new KeyboardEvent('keydown', { key: '?', bubbles: true, ...init });
      Object.defineProperty(e, 'target', { value: target });
      return isShortcutsKey(e);
    };
    const div = document.createElement('div');
    const ta = document.createElement('textarea');
    const input = document.createElement('input');
    document.body.append(div, ta, input);
    expect(key(div)).toBe(true);
    expect(key(ta)).toBe(false);
    expect(key(input)).toBe(false);
    expect(key(div, { ctrlKey: true })).toBe(false);
  });
});
