import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// The machine is shared (2 cores): give async queries room under load.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
});
