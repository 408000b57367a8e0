import { act } from '@testing-library/preact';

/**
 * Lets what waits for a paint (lib/afterPaint: a task after the next
 * animation frame, ~16 ms in jsdom) run, and renders what it changes: a
 * deferred value's second render. A 150 ms timer set now fires after
 * them, whatever the load.
 */
export async function afterPaintRan(): Promise<void> {
  await act(() => new Promise<void>((resolve) => setTimeout(resolve, 150)));
}
