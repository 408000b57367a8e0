import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/preact';
import { useCallback, useState } from 'react';
import { Toasts, type ToastData } from './Toast';

function Host({ initial }: { initial: ToastData[] }) {
  const [toasts, setToasts] = useState(initial);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  return <Toasts toasts={toasts} onDismiss={dismiss} />;
}

afterEach(() => vi.useRealTimers());

describe('Toasts', () => {
  it('stay their duration, paused while hovered or focused, then close (once)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onClose = vi.fn();
    render(<Host initial={[{ id: 1, text: 'Deleted “Trip”.', duration: 10_000, onClose, action: { label: 'Undo', run: () => {} } }]} />);
    const toast = screen.getByRole('status');
    await act(async () => {
      vi.advanceTimersByTime(6_000);
    });
    fireEvent.mouseEnter(toast);
    await act(async () => {
      vi.advanceTimersByTime(30_000); // read slowly: it waits
    });
    expect(screen.getByText('Deleted “Trip”.')).toBeTruthy();
    fireEvent.mouseLeave(toast);
    act(() => screen.getByRole('button', { name: 'Undo' }).focus()); // focus and focusin, as in a browser
    await act(async () => {
      vi.advanceTimersByTime(30_000);
    });
    expect(screen.getByText('Deleted “Trip”.')).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Undo' }).blur());
    await act(async () => {
      vi.advanceTimersByTime(3_500);
    });
    expect(screen.getByText('Deleted “Trip”.')).toBeTruthy(); // 6 s + 3.5 s of its 10 s
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(600);
    });
    expect(screen.queryByText('Deleted “Trip”.')).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('runs the action, then closes', () => {
    const run = vi.fn();
    const onClose = vi.fn();
    render(<Host initial={[{ id: 2, text: 'Deleted.', onClose, action: { label: 'Undo', run } }]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(run).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(run.mock.invocationCallOrder[0]).toBeLessThan(onClose.mock.invocationCallOrder[0]!);
  });
});
