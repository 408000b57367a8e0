// The window issue's runtime-side items, as a person sees them:
//  6. open_url approved after a reload runs once, without a second
//     "Waiting to run… Run now";
//  7. Continue grows the stopped answer in place (no visible "Continue"
//     message, one answer, the mark gone);
//  3. edited arguments show what ran, marked "edited";
//  9. "Always allow" for write_file offers this file / this folder / this
//     chat, and a call a rule let through says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildBinaries, launch, send, openThread, latestThread } from './harness.mjs';

before(() => buildBinaries());

let app;
before(async () => {
  app = await launch({ settings: { enableWriteTools: true } });
});
after(async () => {
  await app?.close();
});

const card = (page, name) => page.getByRole('article', { name });

async function newChat(page, text) {
  await page.getByRole('button', { name: /new chat/i }).first().click();
  await send(page, text);
}

test('open_url approved after a reload runs once, with no second "Run now"', async () => {
  const { page } = app;
  // Record what the page opens instead of leaving the test's browser.
  await page.addInitScript(() => {
    window.__opened = [];
    window.open = (u) => {
      window.__opened.push(String(u));
      return null;
    };
  });
  await page.reload();
  await newChat(page, 'open a website');
  await card(page, 'Approval for open_url').waitFor({ timeout: 15000 });
  const id = await latestThread(app);
  await app.api('RenameThread', id, 'Open once');
  await page.reload();
  await openThread(page, 'Open once');
  const c = card(page, 'Approval for open_url');
  await c.waitFor({ timeout: 15000 });
  await c.getByRole('button', { name: 'Allow once' }).click();
  await page.getByText(/The open_url tool returned/).waitFor({ timeout: 15000 });
  assert.equal(await page.getByRole('button', { name: 'Run now' }).count(), 0, 'it asked a second time');
  const opened = await page.evaluate(() => window.__opened);
  assert.deepEqual(opened.filter((u) => u.startsWith('https://example.com')).length, 1, `opened ${JSON.stringify(opened)}`);
  const v = await app.waitThread(id, (x) => !x.running && x.clientTools.length === 0);
  assert.match(v.messages.find((m) => m.role === 'tool').content, /Opened/i);
});

test('edited arguments: the tool block shows what ran, marked edited, also after a reload', async () => {
  const { page } = app;
  await newChat(page, 'write a note');
  const c = card(page, 'Approval for write_file');
  await c.waitFor({ timeout: 15000 });
  await c.getByRole('button', { name: 'Edit arguments' }).click();
  const editor = c.getByRole('textbox', { name: 'Arguments (JSON)' });
  const args = JSON.parse(await editor.inputValue());
  await editor.fill(JSON.stringify({ ...args, path: 'edited-by-me.txt' }, null, 2));
  await c.getByRole('button', { name: 'Allow with these arguments' }).click();
  await page.getByText(/The write_file tool returned/).waitFor({ timeout: 15000 });
  const block = page.locator('.tool-block').last();
  await block.getByText('edited', { exact: true }).waitFor({ timeout: 5000 });
  assert.match(await block.innerText(), /edited-by-me\.txt/);
  assert.doesNotMatch(await block.innerText(), /notes\.txt/, 'the model\'s original path is shown');
  const id = await latestThread(app);
  await app.api('RenameThread', id, 'Edited once');
  await page.reload();
  await openThread(page, 'Edited once');
  const again = page.locator('.tool-block').last();
  await again.getByText('edited', { exact: true }).waitFor({ timeout: 10000 });
  assert.match(await again.innerText(), /edited-by-me\.txt/);
});

test('Always allow offers this file and this chat for write_file; a call the rule let through says so', async () => {
  const { page } = app;
  await newChat(page, 'write a note');
  const c = card(page, 'Approval for write_file');
  await c.waitFor({ timeout: 15000 });
  await c.getByRole('button', { name: 'Always allow…' }).click();
  const labels = await c.getByRole('radio').evaluateAll((rs) => rs.map((r) => r.closest('label')?.innerText.trim() ?? ''));
  assert.ok(labels.some((l) => /this file only/.test(l)), `labels ${JSON.stringify(labels)}`);
  assert.ok(labels.some((l) => /in this chat only/.test(l)), `labels ${JSON.stringify(labels)}`);
  assert.ok(labels.some((l) => /Every write_file call/.test(l)), `labels ${JSON.stringify(labels)}`);
  assert.ok(!labels.some((l) => /inside /.test(l)), `the workspace root is offered as a folder: ${JSON.stringify(labels)}`);
  await c.getByRole('radio', { name: /in this chat only/ }).check();
  await c.getByRole('button', { name: 'Always allow', exact: true }).click();
  await page.getByText(/The write_file tool returned/).first().waitFor({ timeout: 15000 });
  // The same chat: no card; the call says which rule let it run.
  await send(page, 'write a note');
  await page.getByText(/Allowed by your rule \(write_file in this chat\)/).waitFor({ timeout: 15000 });
  assert.equal(await card(page, 'Approval for write_file').count(), 0);
  // Another chat asks.
  await newChat(page, 'write a note');
  await card(page, 'Approval for write_file').waitFor({ timeout: 15000 });
  await card(page, 'Approval for write_file').getByRole('button', { name: 'Deny…' }).click();
  await page.keyboard.press('Enter');
  const rules = await app.api('ListPermissionRules');
  for (const r of rules) await app.api('RevokePermissionRule', r.id);
});

test('Continue grows the stopped answer in place: no visible "Continue" message, one answer, the mark gone', async () => {
  const { page } = app;
  await newChat(page, 'Please write a long essay about rivers');
  const stop = page.getByRole('button', { name: /^stop/i });
  await stop.waitFor({ timeout: 10000 });
  await page.waitForFunction(() => (document.querySelector('main')?.innerText ?? '').split(/\s+/).length > 80, null, { timeout: 15000 });
  await stop.click();
  await page.getByText('Interrupted', { exact: true }).first().waitFor({ timeout: 5000 });
  const answers = page.locator('article[aria-label="Juncture said"]');
  const before = (await answers.last().innerText()).length;
  await page.getByRole('button', { name: 'Continue' }).click();
  await stop.waitFor({ timeout: 10000 }); // the continuation runs
  await page.getByRole('button', { name: /^send/i }).waitFor({ timeout: 30000 });
  await page.waitForFunction(() => !document.querySelector('article[aria-busy="true"]'), null, { timeout: 30000 });
  assert.equal(await answers.count(), 1, 'Continue made a second answer');
  assert.equal(await page.locator('article[aria-label="You said"]').count(), 1, 'Continue posted a message of the person');
  assert.doesNotMatch(await page.locator('main').innerText(), /Continue from where you stopped/);
  const grown = await answers.last().innerText();
  assert.ok(grown.length > before, `the answer did not grow (${before} → ${grown.length}): …${grown.slice(-300)}\n${JSON.stringify((await app.api('GetThread', await latestThread(app))).messages.map((m) => [m.role, m.status, m.content.slice(-80)]))}`);
  assert.equal(await answers.last().getByText('Interrupted', { exact: true }).count(), 0, 'the mark stayed');
  assert.deepEqual(app.consoleErrors, []);
});

test('reasoning shows above the answer it came before', async () => {
  const { page } = app;
  await newChat(page, 'Please think about it');
  const answer = page.locator('article[aria-label="Juncture said"]').last();
  await answer.locator('.msg-reasoning').waitFor({ timeout: 15000 });
  await page.getByRole('button', { name: /^send/i }).waitFor({ timeout: 30000 });
  const r = await answer.locator('.msg-reasoning').boundingBox();
  const body = await answer.locator('.msg-reasoning ~ *').first().boundingBox();
  assert.ok(r && body && r.y < body.y, `reasoning at ${r?.y}, answer at ${body?.y}`);
});

test('Stop while an approval waits: the answer shows Interrupted and Regenerate at once, without a reload', async () => {
  const { page } = app;
  await newChat(page, 'write a note');
  await card(page, 'Approval for write_file').waitFor({ timeout: 15000 });
  await page.getByRole('textbox', { name: /message|reply/i }).focus();
  await page.keyboard.press('Escape');
  await card(page, 'Approval for write_file').waitFor({ state: 'detached', timeout: 10000 });
  const answer = page.locator('article[aria-label="Juncture said"]').last();
  await answer.locator('.msg-badge', { hasText: 'Interrupted' }).waitFor({ timeout: 5000 });
  // Regenerate at once; Continue only for an answer without tool calls (Go continues text, not calls).
  await answer.getByRole('button', { name: /Regenerate/ }).waitFor({ timeout: 5000 });
  assert.equal(await answer.getByRole('button', { name: 'Continue' }).count(), 0);
});
