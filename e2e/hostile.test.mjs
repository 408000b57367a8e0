// User story: a model (or a web page it quotes) answers with hostile
// Markdown. Nothing in it runs: no script, no event handler, no javascript:
// or data: link, no frame, and clicking the links does no harm.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { buildBinaries, conversation, send, latestThread } from './harness.mjs';
import { inApp } from './story.mjs';

before(() => buildBinaries());

test('hostile Markdown renders inert', inApp(async (app) => {
  const { page, browser } = app;
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  await send(page, 'show hostile markdown');
  await conversation(page).getByText('End of the hostile sample.').waitFor({ timeout: 15000 });
  const tid = await latestThread(app);
  await app.waitThread(tid, (v) => !v.running);
  // The stored answer really carries the payloads (the demo trigger works).
  const stored = (await app.api('GetThread', tid)).messages.at(-1).content;
  assert.ok(stored.includes('<script>window.__pwned=1</script>'));
  await page.waitForTimeout(500); // let any onerror/onload fire

  const answer = page.getByRole('article', { name: 'Juncture said' }).last();
  const report = await answer.evaluate((root) => {
    const all = [root, ...root.querySelectorAll('*')];
    return {
      onAttrs: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`)),
      dangerous: [...root.querySelectorAll('script, iframe, frame, object, embed, svg foreignObject, svg[onload], form, meta, base, link, style')]
        .map((el) => el.outerHTML.slice(0, 120)),
      svgs: [...root.querySelectorAll('svg')].filter((s) => !s.closest('button')).map((s) => s.outerHTML.slice(0, 120)),
      imgs: [...root.querySelectorAll('img')].map((i) => i.getAttribute('src')),
      hrefs: [...root.querySelectorAll('[href], [src], [xlink\\:href], [action], [formaction]')]
        .map((el) => el.getAttribute('href') ?? el.getAttribute('src') ?? el.getAttribute('action') ?? el.getAttribute('formaction') ?? ''),
      styled: [...root.querySelectorAll('[style]')].map((el) => el.getAttribute('style')),
    };
  });
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'a payload ran');
  assert.deepEqual(report.onAttrs, [], 'event-handler attributes in the answer');
  assert.deepEqual(report.dangerous, [], 'script/iframe/embedding elements in the answer');
  assert.deepEqual(report.svgs, [], 'an <svg> from the message was rendered');
  for (const h of report.hrefs) assert.doesNotMatch(h.trim(), /^(javascript|data|vbscript):/i, `dangerous URL ${h}`);
  assert.ok(report.imgs.every((s) => !s || /^https?:/.test(s)), `odd image sources: ${report.imgs}`);
  assert.ok(report.styled.every((s) => !/position\s*:\s*fixed/.test(s)), 'a raw style attribute was kept');
  // javascript: and data: links are not links at all.
  assert.equal(await answer.getByRole('link').count(), 0, 'a hostile link is still a link');
  await answer.getByText('click me', { exact: true }).waitFor();
  // No iframe anywhere on the page came from the message.
  assert.equal(await page.locator('iframe').count(), 0);
  // The payloads are visible as text or dropped, never as live markup; the whole page too.
  assert.equal(await page.evaluate(() => document.querySelectorAll('[onerror],[onload],[onclick],[onmouseover]').length), 0);

  // Clicking the links does nothing harmful: no navigation, no new page, no payload.
  const pagesBefore = browser.contexts().flatMap((c) => c.pages()).length;
  const urlBefore = page.url();
  for (const name of ['click me', 'data link', 'raw anchor']) {
    const el = answer.getByText(name, { exact: true }).first();
    if (await el.count()) await el.click({ timeout: 2000 }).catch(() => {});
  }
  await answer.getByText('hover', { exact: true }).first().hover({ timeout: 2000 }).catch(() => {});
  await page.waitForTimeout(700);
  assert.equal(page.url(), urlBefore, 'a hostile link navigated the app');
  assert.equal(browser.contexts().flatMap((c) => c.pages()).length, pagesBefore, 'a hostile link opened a page');
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'a payload ran after clicking');
  assert.deepEqual(dialogs, []);
  // The app still works afterwards.
  await page.getByRole('textbox', { name: /message/i }).waitFor();
}));
