import { useEffect, useState } from 'react';
import { afterPaint } from './afterPaint';

/**
 * React's useDeferredValue, which preact/compat reduces to returning the
 * value itself. Here, a render where the value changed still shows the
 * previous one, and a second render, once the browser has painted the
 * first (lib/afterPaint), shows the new one. It is for changes that are
 * costly to render (highlighting a finished answer, overscan after a chat
 * switch) and must not delay the frame that shows their cause (Stop, the
 * new chat). On mount the value is shown at once, as React does.
 */
export function useDeferredValue<T>(value: T): T {
  const [shown, setShown] = useState<T>(value);
  useEffect(() => {
    if (Object.is(shown, value)) return;
    return afterPaint(() => setShown(() => value));
  }, [value, shown]);
  return shown;
}
