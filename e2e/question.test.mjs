// User story: the model asks me a question. A form generated from the
// question's JSON Schema appears; an invalid answer shows an inline error
// and is not sent; a valid one continues the conversation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildBinaries, launch, send, latestThread, askUserLanded } from './harness.mjs';

let app;
let landed;
before(async () => {
  buildBinaries();
  app = await launch();
  landed = await askUserLanded(app);
  if (landed !== true) console.log(`# ${landed}`);
  await app.page.reload();
});
after(() => app?.close());

test('a choice question: nothing chosen is an inline error, a choice continues', async (t) => {
  if (landed !== true) return t.skip(landed);
  const { page } = app;
  await page.keyboard.press('Control+n');
  await send(page, 'ask me something');
  const card = page.getByRole('article', { name: 'Question' });
  await card.waitFor({ timeout: 15000 });
  await card.getByText('Which theme do you prefer?').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Question');
  // The options come from the schema's enum.
  for (const o of ['Light', 'Dark', 'System']) await card.getByRole('radio', { name: o }).waitFor();
  const submit = card.getByRole('button', { name: 'Submit answer', exact: true });
  await submit.click();
  await card.getByRole('alert').first().waitFor({ timeout: 3000 });
  assert.match(await card.innerText(), /Required|needs attention/);
  const tid = await latestThread(app);
  assert.equal((await app.api('GetThread', tid)).interrupts.length, 1, 'an invalid answer was sent');

  await card.getByRole('radio', { name: 'Dark' }).check();
  await submit.click();
  await page.getByText('You answered:', { exact: true }).waitFor /* not the announcer's copy */({ timeout: 15000 });
  const v = await app.waitThread(tid, (x) => !x.running && x.interrupts.length === 0);
  assert.equal(v.messages.find((m) => m.role === 'tool').content, 'Dark');
  assert.match(await page.getByRole('article', { name: 'Juncture said' }).last().innerText(), /Dark/);
  assert.deepEqual(app.consoleErrors, []);
});

test('a form question: an out-of-range age is refused inline, a valid form continues', async (t) => {
  if (landed !== true) return t.skip(landed);
  const { page } = app;
  await page.keyboard.press('Control+n');
  await send(page, 'please fill in a form');
  const card = page.getByRole('article', { name: 'Question' });
  await card.waitFor({ timeout: 15000 });
  await card.getByText('Tell me about yourself.').waitFor();
  // Fields follow the schema's `required` order (Go sends keys sorted).
  const labels = await card.locator('form label').allInnerTexts();
  assert.ok(labels.findIndex((l) => /Name/.test(l)) < labels.findIndex((l) => /Age/.test(l)), `field order: ${JSON.stringify(labels)}`);
  const name = card.getByRole('textbox', { name: /Name/ });
  const age = card.getByRole('spinbutton', { name: /Age/ }).or(card.getByRole('textbox', { name: /Age/ }));
  await name.fill('Ada');
  await age.fill('999');
  const submit = card.getByRole('button', { name: 'Submit answer', exact: true });
  await submit.click();
  await card.getByRole('alert').first().waitFor({ timeout: 3000 });
  assert.equal(await age.getAttribute('aria-invalid'), 'true', 'the age field is not marked invalid');
  assert.match(await card.innerText(), /150/, 'the error does not say the limit');
  const tid = await latestThread(app);
  assert.equal((await app.api('GetThread', tid)).interrupts.length, 1, 'an invalid answer was sent');

  await age.fill('36');
  await submit.click();
  await page.getByText('You answered:', { exact: true }).waitFor /* not the announcer's copy */({ timeout: 15000 });
  const v = await app.waitThread(tid, (x) => !x.running && x.interrupts.length === 0);
  assert.deepEqual(JSON.parse(v.messages.find((m) => m.role === 'tool').content), { name: 'Ada', age: 36 });
  assert.deepEqual(app.consoleErrors, []);
});
