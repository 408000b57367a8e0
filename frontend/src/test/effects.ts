import { act } from '@testing-library/preact';

/**
 * Lets the passive effects (useEffect) that are already scheduled run, and
 * renders what they change. Preact runs them after the next frame: at the
 * page's animation frame or at most 35 ms later (preact/hooks'
 * afterNextFrame); `act` flushes only the ones scheduled inside it. A
 * 50 ms timer set now fires after those timers, whatever the load.
 */
export async function afterEffects(): Promise<void> {
  await act(() => new Promise<void>((resolve) => setTimeout(resolve, 50)));
}
