// User story: Juncture restarts while its page stays open (no reload).
// The page's event stream reconnects by itself with the id of the last
// event it saw, of the previous run; the new run keeps its events for such
// a page for two minutes after it starts (agent/broker: a page of the last
// boot), so the page goes on: the chat from before is there, and a new
// answer streams in live, whole and in order.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { buildBinaries, launch, send, latestThread } from './harness.mjs';

before(() => buildBinaries());

const answerText = (page) =>
  page.evaluate(() => {
    const a = [...document.querySelectorAll('article[aria-label="Juncture said"]')];
    return a.length ? a[a.length - 1].innerText : '';
  });

test('a page left open across a restart reconnects and streams the next answer live', async () => {
  const app = await launch();
  const { page } = app;
  try {
    await send(page, 'count, please');
    await page.waitForFunction(() => /w400/.test(document.body.innerText), null, { timeout: 30000 });
    const tid = await latestThread(app);
    await app.waitThread(tid, (v) => !v.running);

    await app.restartApp({ reload: false });
    // The stream reconnects with backoff; then a second answer streams in.
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
    await page.waitForTimeout(3000);
    await send(page, 'count again, please');
    await page.waitForFunction(
      () => [...document.querySelectorAll('article[aria-label="Juncture said"]')].length >= 2,
      null, { timeout: 30000 });
    await page.waitForFunction(() => {
      const a = [...document.querySelectorAll('article[aria-label="Juncture said"]')];
      return /w400/.test(a[a.length - 1]?.innerText ?? '');
    }, null, { timeout: 30000 });
    const words = (await answerText(page)).match(/w\d{3}/g) ?? [];
    words.forEach((w, i) => assert.equal(w, `w${String(i + 1).padStart(3, '0')}`, `word ${i + 1} after the restart`));
    assert.equal(words.length, 400);
  } finally {
    await app.close();
  }
});
