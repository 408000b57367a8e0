// inApp: the frame most stories share (a fresh app, no console error at the
// end, closed whatever happened), so that a test holds only its story.
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';

/**
 * Returns a test function that launches the app with opts (see launch; may
 * be left out), runs body(app), checks that the window logged no console
 * error, and closes the app even when body throws.
 */
export function inApp(opts, body) {
  if (typeof opts === 'function') [opts, body] = [undefined, opts];
  return async () => {
    const app = await launch(opts);
    try {
      await body(app);
      assert.deepEqual(app.consoleErrors, []);
    } finally {
      await app.close();
    }
  };
}
