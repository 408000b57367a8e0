// Broken item 1 of the window issue: a reload (or a chat switch) in the
// middle of a streaming answer must not lose or repeat text. The demo
// model streams "w001 w002 … w400" for "count": at every moment the words
// shown must be w001…wN with nothing missing and nothing twice, not just
// at the end. At least 20 random reload moments, and chat switches.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { buildBinaries, launch, openThread, latestThread } from './harness.mjs';

before(() => buildBinaries());

// A small seeded generator: the moments are random but reproducible.
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const lastAnswer = (page) =>
  page.evaluate(() => {
    const a = [...document.querySelectorAll('article[aria-label="Juncture said"]')];
    return a.length ? a[a.length - 1].innerText : '';
  });

// contiguous asserts the words are w001…wN in order and returns N.
function contiguous(text, when) {
  const words = text.match(/w\d{3}/g) ?? [];
  words.forEach((w, i) => {
    const want = `w${String(i + 1).padStart(3, '0')}`;
    assert.equal(w, want, `${when}: word ${i + 1} is ${w}, want ${want}, in …${text.slice(Math.max(0, text.indexOf(w) - 80), text.indexOf(w) + 20)}`);
  });
  return words.length;
}

async function sample(page, when) {
  let n = 0;
  for (let k = 0; k < 3; k++) {
    n = contiguous(await lastAnswer(page), `${when}, sample ${k + 1}`);
    await page.waitForTimeout(40);
  }
  return n;
}

test('reloads and chat switches at random moments of a streaming answer never show a hole or a repeat', async () => {
  const app = await launch();
  const { page } = app;
  const next = rng(20261201);
  const moments = { reload: 0, switch: 0, midStream: 0 };
  try {
    const composer = () => page.getByRole('textbox', { name: /message/i });
    let round = 0;
    let other = null; // a finished conversation to switch to
    // Until 20 moments landed mid-stream (a slow machine lands fewer per
    // round), bounded: at most 60 reloads and switches.
    while (moments.midStream < 20 && moments.reload + moments.switch < 60) {
      round++;
      await page.getByRole('button', { name: /new chat/i }).first().click();
      await composer().waitFor({ timeout: 15000 });
      await composer().fill('count, please');
      await composer().press('Enter');
      await page.waitForFunction(() => /w00\d/.test(document.body.innerText), null, { timeout: 15000 });
      const id = await latestThread(app);
      const title = `Round ${round}`;
      await app.api('RenameThread', id, title);
      for (;;) {
        await page.waitForTimeout(150 + Math.floor(next() * 550));
        const before = await lastAnswer(page);
        const done = /w400/.test(before);
        if (done) break;
        if (other && next() < 0.3) {
          await openThread(page, other);
          await page.waitForTimeout(50 + Math.floor(next() * 200));
          await openThread(page, title);
          moments.switch++;
        } else {
          await page.reload();
          await openThread(page, title);
          moments.reload++;
        }
        await page.waitForFunction(() => /w\d{3}/.test(document.querySelector('main')?.innerText ?? ''), null, { timeout: 10000 });
        const n = await sample(page, `round ${round} after ${moments.reload} reloads and ${moments.switch} switches`);
        if (n < 400) moments.midStream++;
      }
      await page.waitForFunction(() => /w400/.test(document.body.innerText), null, { timeout: 20000 });
      assert.equal(await sample(page, `round ${round} at the end`), 400);
      other = title;
    }
    assert.ok(moments.midStream >= 20, `only ${moments.midStream} moments landed mid-stream: ${JSON.stringify(moments)}`);
    assert.deepEqual(app.consoleErrors, []);
    console.log(`stream-reload: ${JSON.stringify(moments)}`);
  } finally {
    await app.close();
  }
});
