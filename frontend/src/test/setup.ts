import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/preact';
import { options } from 'preact';

// The machine is shared (2 cores): give async queries room under load. A
// passing query returns as soon as it matches, so only a failure waits the
// whole time; 5 s was seen lost at load 15 by role queries over big trees.
configure({ asyncUtilTimeout: 15_000 });

// Preact runs passive effects (useEffect) after the next frame: at
// requestAnimationFrame, or on a 35 ms timer that then calls
// cancelAnimationFrame. jsdom paints nothing, and a timer left from a file's
// last test fires after Vitest took jsdom's globals away ("cancelAnimationFrame
// is not defined"). Here they run in the next task: still after the commit
// that scheduled them, never in it, as in the window.
options.requestAnimationFrame = (flush) => {
  setTimeout(flush);
};

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
});
