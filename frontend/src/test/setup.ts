import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/preact';
import '../lib/effectTiming'; // as in the window (main.tsx)
import '../lib/emptyText'; // as in the window (main.tsx)

// The machine is shared (2 cores): give async queries room under load. A
// passing query returns as soon as it matches, so only a failure waits the
// whole time; 5 s was seen lost at load 15 by role queries over big trees.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
});
