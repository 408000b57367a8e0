// User stories (issue 12): editing a question makes a new version of it,
// and the model answers from there without seeing the old one; the arrows
// switch versions; Regenerate makes a new version of an answer without
// repeating the question; each answer says what it cost in tokens; search
// finds words on every version and opens the one they are on.
//
// The demo model's "echo history" answer lists the messages it received
// (agent/fakellm/demo_history.go), so the story reads exactly what the
// model was sent. Screenshots of a branched thread (light and dark) go to
// e2e/artifacts/branches-*.png.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildBinaries, send, latestThread } from './harness.mjs';
import { inApp } from './story.mjs';

const artifacts = join(import.meta.dirname, 'artifacts');

before(() => {
  buildBinaries();
  mkdirSync(artifacts, { recursive: true });
});

const OLD = 'Tell me about zebras please';
const NEW = 'Tell me about giraffes instead and echo history';

const userRows = (page) => page.locator('article[aria-label="You said"]');
// The conversation itself (not the header, whose title the first question named).
const log = (page) => page.getByRole('log', { name: 'Conversation' });
const answerRows = (page) => page.locator('article[aria-label="Juncture said"]');
const idle = (page) => page.getByRole('button', { name: /^send/i }).waitFor({ timeout: 20000 });

// The version switcher of a row: its position ("Version 2 of 2").
async function versionOf(row) {
  const g = row.getByRole('group', { name: 'Versions' });
  if (!(await g.count())) return null;
  return (await g.locator('.visually-hidden').innerText()).trim();
}

// Waits until the conversation shows these questions and the version of the (only) question.
async function waitPath(page, question, version) {
  await page.waitForFunction(
    ([q, v]) => {
      const rows = [...document.querySelectorAll('article[aria-label="You said"]')];
      if (rows.length !== 1) return false;
      const r = rows[0];
      return r.querySelector('.msg-user-bubble')?.textContent === q && (r.querySelector('.branch-pos .visually-hidden')?.textContent ?? null) === v;
    },
    [question, version],
    { timeout: 15000 },
  );
}

async function branchedThread(app) {
  const { page } = app;
  await send(page, OLD);
  await page.getByText('You said:').first().waitFor({ timeout: 15000 });
  await idle(page);
  const id = await latestThread(app);
  await app.waitThread(id, (v) => !v.running && v.messages.some((m) => m.role === 'assistant' && m.status === 'complete'));

  // Edit in place: the pencil on the question opens an editor with its text.
  const q = userRows(page).first();
  await q.hover();
  await q.getByRole('button', { name: 'Edit message' }).click();
  const box = q.getByRole('textbox', { name: 'Edit your message' });
  assert.equal(await box.inputValue(), OLD);
  await box.fill(NEW);
  await q.getByRole('button', { name: 'Save & send' }).click();
  await page.getByText(/I received \d+ messages?:/).first().waitFor({ timeout: 20000 });
  await idle(page);
  await waitPath(page, NEW, 'Version 2 of 2');
  return id;
}

test('edit and resend: a new version (2/2), the model never saw the old one, ‹ › switch; usage; search opens the old version', inApp(async (app) => {
  const { page } = app;
  const id = await branchedThread(app);

  // One question, one answer on this version; the old ones are one arrow away.
  assert.equal(await userRows(page).count(), 1);
  assert.equal(await answerRows(page).count(), 1);
  const echo = await answerRows(page).first().innerText();
  assert.match(echo, /giraffes instead and echo history/, echo);
  // What the model was sent for the new version: neither the old question nor its answer.
  assert.doesNotMatch(echo, /zebras/i, `the model saw the old version: ${echo}`);
  assert.doesNotMatch(echo, /You said/, `the model saw the old answer: ${echo}`);
  const view = await app.api('GetThread', id);
  const asked = view.messages.filter((m) => m.role === 'user');
  assert.deepEqual(asked.map((m) => m.content), [NEW]);
  assert.deepEqual(asked[0].branch?.index, 2);
  assert.equal(asked[0].branch?.count, 2);

  // Usage: the demo model reports it; the answer and the thread say so.
  const usage = answerRows(page).first().locator('.usage-line');
  await usage.waitFor({ timeout: 10000 });
  assert.match(await usage.innerText(), /^\d[\d.,]*k? in · \d[\d.,]*k? out/);
  assert.match(await usage.getAttribute('title'), /^Prompt: [\d,]+ tokens · completion: [\d,]+ tokens/);
  const total = page.locator('.thread-usage');
  await total.waitFor({ timeout: 10000 });
  assert.match(await total.innerText(), /\d[\d.,]*k? tokens/);
  assert.match(await total.getAttribute('title'), /over 2 answers, every branch included/);
  assert.equal(view.usage.answers, 2);
  assert.equal(view.usage.unreported, 0);
  assert.ok(view.usage.total.totalTokens > 0);

  // ‹ : the old question and its answer; › : the new ones again.
  const q = userRows(page).first();
  assert.equal(await versionOf(q), 'Version 2 of 2');
  assert.equal(await q.getByRole('button', { name: 'Next version' }).isDisabled(), true);
  await q.getByRole('button', { name: 'Previous version' }).click();
  await waitPath(page, OLD, 'Version 1 of 2');
  await answerRows(page).getByText('You said:').waitFor({ timeout: 10000 });
  assert.match(await answerRows(page).first().innerText(), /Tell me about zebras please/);
  assert.doesNotMatch(await log(page).innerText(), /giraffes|I received/);
  // The focus stays on the switcher: → from the keyboard goes back.
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Next version');
  await page.keyboard.press('Enter');
  await waitPath(page, NEW, 'Version 2 of 2');
  await page.getByText(/I received \d+ messages?:/).first().waitFor({ timeout: 10000 });
  assert.doesNotMatch(await log(page).innerText(), /zebras/i);

  // Screenshots of the branched thread, light and dark.
  for (const theme of ['light', 'dark']) {
    const cur = await app.api('GetSettings');
    await app.api('SaveSettings', { ...cur.settings, theme });
    await page.reload();
    await waitPath(page, NEW, 'Version 2 of 2');
    await page.locator('.usage-line').first().waitFor({ timeout: 10000 });
    await page.mouse.move(900, 300);
    await userRows(page).first().hover();
    await page.screenshot({ path: join(artifacts, `branches-${theme}.png`), animations: 'disabled', caret: 'hide' });
  }
  const cur = await app.api('GetSettings');
  await app.api('SaveSettings', { ...cur.settings, theme: 'system' });

  // Search finds the word on the old version and opens that version.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('zebras');
  const results = page.getByRole('list', { name: 'Search results for zebras' });
  await results.waitFor({ timeout: 10000 });
  const hit = results.getByRole('button').filter({ hasText: 'You:' }).first();
  await hit.waitFor({ timeout: 10000 });
  await hit.click();
  await waitPath(page, OLD, 'Version 1 of 2');
  const oldQ = (await app.api('GetThread', id)).messages.find((m) => m.role === 'user');
  assert.equal(oldQ.content, OLD, 'the old version is the active path now');
  await page.locator(`[data-message-id="${oldQ.id}"].is-highlighted`).waitFor({ timeout: 5000 });
}));

test('regenerate: a new version of the answer (2/2), the question is not repeated', inApp(async (app) => {
  const { page } = app;
  await send(page, 'Tell me about owls');
  await page.getByText('You said:').first().waitFor({ timeout: 15000 });
  await idle(page);
  const id = await latestThread(app);
  await app.waitThread(id, (v) => !v.running && v.messages.some((m) => m.role === 'assistant' && m.status === 'complete'));
  const before = (await app.api('GetThread', id)).messages.find((m) => m.role === 'assistant');

  // Regenerate is on every finished answer (not only after an error or a Stop).
  const a = answerRows(page).last();
  await a.hover();
  await a.getByRole('button', { name: 'Regenerate' }).click();
  await page.waitForFunction(
    (old) => {
      const rows = [...document.querySelectorAll('article[aria-label="Juncture said"]')];
      return rows.length === 1 && rows[0].dataset.messageId !== old && rows[0].querySelector('.branch-pos .visually-hidden')?.textContent === 'Version 2 of 2';
    },
    before.id,
    { timeout: 20000 },
  );
  await idle(page);
  assert.equal(await userRows(page).count(), 1, 'the question was repeated');
  assert.equal(await versionOf(userRows(page).first()), null, 'the question itself has one version');
  const v = await app.api('GetThread', id);
  assert.deepEqual(v.messages.map((m) => m.role), ['user', 'assistant']);
  assert.deepEqual(v.messages[1].branch?.siblings, [before.id, v.messages[1].id]);
  // While the answer streams Regenerate is not offered; once done, it is.
  await answerRows(page).last().getByRole('button', { name: 'Regenerate' }).waitFor({ state: 'attached', timeout: 5000 });

  await page.mouse.move(900, 600);
  await page.screenshot({ path: join(artifacts, 'branches-answer.png'), animations: 'disabled', caret: 'hide' });

  // ‹ shows the first answer again, with the same question.
  await answerRows(page).last().getByRole('button', { name: 'Previous version' }).click();
  await page.locator(`article[data-message-id="${before.id}"]`).waitFor({ timeout: 10000 });
  assert.equal(await versionOf(answerRows(page).last()), 'Version 1 of 2');
  assert.equal(await userRows(page).count(), 1);
}));
