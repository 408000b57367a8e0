import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { ThreadItem } from './ThreadItem';
import type { Activity } from '../../hooks/useThreadActivity';
import { liveActivity } from '../../hooks/useThreadActivity';
import { parseThreadPage, type ThreadListItem } from '../../transport/contract';
import { change } from '../../test/change';

function item(p: Partial<ThreadListItem> = {}): ThreadListItem {
  return { id: 'th-1', title: 'Plan the trip', pinned: false, createdAt: 1, updatedAt: 2, options: { systemPrompt: '' }, running: false, waiting: 0, ...p };
}

function show(thread: ThreadListItem, activity: Activity | null | undefined = undefined) {
  const noop = vi.fn();
  return render(
    <ul>
      <ThreadItem
        thread={thread}
        active={false}
        activity={activity}
        onOpen={noop}
        onRename={noop}
        onPin={noop}
        onExport={noop}
        onDelete={noop}
      />
    </ul>,
  );
}

describe('ThreadItem indicators from the loaded list', () => {
  it('shows "Waiting for your decision" for a listed thread that waits, without live events', () => {
    const { container } = show(item({ waiting: 2 }));
    // Named by the title alone; the status is the description.
    const button = screen.getByRole('button', { name: 'Plan the trip', description: 'Waiting for your decision' });
    expect(button).toBeTruthy();
    expect(container.querySelector('.titem-activity.awaiting')).not.toBeNull();
    expect(container.querySelector('.titem-activity.running')).toBeNull();
  });

  it('shows the running indicator for a listed thread that runs', () => {
    const { container } = show(item({ running: true, waiting: 1 }));
    expect(screen.getByRole('button', { name: 'Plan the trip', description: 'Running' })).toBeTruthy();
    expect(container.querySelector('.titem-activity.running')).not.toBeNull();
    expect(container.querySelector('.titem-activity.awaiting')).toBeNull();
  });

  it('keeps pinned in the description alongside the list state', () => {
    show(item({ pinned: true, waiting: 1 }));
    expect(
      screen.getByRole('button', { name: 'Plan the trip', description: 'Pinned, Waiting for your decision' }),
    ).toBeTruthy();
  });

  it('shows nothing for an idle listed thread', () => {
    const { container } = show(item());
    const button = screen.getByRole('button', { name: 'Plan the trip' });
    expect(button.getAttribute('aria-describedby')).toBeNull();
    expect(container.querySelector('.titem-activity')).toBeNull();
  });

  it('live events newer than the list win over it', () => {
    const { container, rerender } = show(item({ waiting: 1 }), null);
    expect(container.querySelector('.titem-activity')).toBeNull();
    const noop = vi.fn();
    rerender(
      <ul>
        <ThreadItem
          thread={item({ waiting: 1 })}
          active={false}
          activity="running"
          onOpen={noop}
          onRename={noop}
          onPin={noop}
          onExport={noop}
          onDelete={noop}
        />
      </ul>,
    );
    expect(screen.getByRole('button', { name: 'Plan the trip', description: 'Running' })).toBeTruthy();
  });
});

describe('liveActivity', () => {
  it('counts only events at or after the list request', () => {
    expect(liveActivity(undefined, 10)).toBeUndefined();
    expect(liveActivity({ activity: 'running', at: 9 }, 10)).toBeUndefined();
    expect(liveActivity({ activity: null, at: 10 }, 10)).toBeNull();
    expect(liveActivity({ activity: 'awaiting', at: 11 }, 10)).toBe('awaiting');
  });
});

describe('parseThreadPage', () => {
  it('reads running and waiting, and defaults them for items without', () => {
    const page = parseThreadPage({
      threads: [
        { id: 'a', title: 'A', pinned: false, createdAt: 1, updatedAt: 1, running: true, waiting: 3 },
        { id: 'b', title: 'B', pinned: true, createdAt: 1, updatedAt: 1 },
      ],
      nextCursor: '',
    });
    expect(page.threads[0]).toMatchObject({ id: 'a', running: true, waiting: 3 });
    expect(page.threads[1]).toMatchObject({ id: 'b', pinned: true, running: false, waiting: 0 });
  });
});

describe('ThreadItem keyboard: one Tab stop per chat', () => {
  function list() {
    const onOpen = vi.fn();
    const onRename = vi.fn();
    const noop = vi.fn();
    const props = { activity: undefined, onOpen, onRename, onPin: noop, onExport: noop, onDelete: noop };
    render(
      <nav>
        <ul>
          <ThreadItem {...props} thread={item({ id: 'th-1', title: 'First' })} active={false} />
          <ThreadItem {...props} thread={item({ id: 'th-2', title: 'Second' })} active />
          <ThreadItem {...props} thread={item({ id: 'th-3', title: 'Third' })} active={false} />
        </ul>
      </nav>,
    );
    return { onOpen, onRename };
  }

  it('the row is a Tab stop; only the open chat’s "…" is one too (issue 22 item 14)', () => {
    list();
    expect(screen.getByRole('button', { name: 'Second' }).tabIndex).toBe(0);
    expect(screen.getByRole('button', { name: 'Options for Second' }).tabIndex).toBe(0);
    expect(screen.getByRole('button', { name: 'Options for First' }).tabIndex).toBe(-1);
    expect(screen.getByRole('button', { name: 'Second' }).getAttribute('aria-keyshortcuts')).toBe('Shift+F10 ContextMenu F2');
  });

  it('Shift+F10 and the Menu key open the menu on its first item; Esc closes it back onto the row', () => {
    list();
    const row = screen.getByRole('button', { name: 'Second' });
    row.focus();
    fireEvent.keyDown(row, { key: 'F10', shiftKey: true });
    const menu = screen.getByRole('menu', { name: 'Options for Second' });
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Rename' }));
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Pin' }));
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(row);
    fireEvent.keyDown(row, { key: 'ContextMenu' });
    expect(screen.getByRole('menu', { name: 'Options for Second' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    // A right-click opens the same menu.
    fireEvent.contextMenu(row);
    expect(screen.getByRole('menu', { name: 'Options for Second' })).toBeTruthy();
  });

  it('arrow keys, Home and End move between chats; F2 renames and Enter gives focus back', () => {
    const { onRename } = list();
    const first = screen.getByRole('button', { name: 'First' });
    const second = screen.getByRole('button', { name: 'Second' });
    const third = screen.getByRole('button', { name: 'Third' });
    second.focus();
    fireEvent.keyDown(second, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(third);
    fireEvent.keyDown(third, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(third);
    fireEvent.keyDown(third, { key: 'Home' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'End' });
    expect(document.activeElement).toBe(third);
    fireEvent.keyDown(third, { key: 'F2' });
    const input = screen.getByRole('textbox', { name: 'Conversation title' });
    expect(document.activeElement).toBe(input);
    change(input, { target: { value: 'Renamed' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onRename).toHaveBeenCalledWith('th-3', 'Renamed');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Third' }));
  });
});
