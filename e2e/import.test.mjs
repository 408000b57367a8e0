// User story: I move my ChatGPT history over. Settings → "Import from
// ChatGPT or Claude" takes conversations.json from the export and says what
// it imported; importing it again adds nothing; a word from it is found by
// the sidebar search, and its edited question keeps both versions. A
// screenshot of the summary goes to e2e/artifacts/import-summary.png.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildBinaries } from './harness.mjs';
import { inApp } from './story.mjs';

const artifacts = join(import.meta.dirname, 'artifacts');
const fixture = resolve(import.meta.dirname, '../store/importers/testdata/chatgpt-conversations.json');
const sourdough = 'chatgpt-c0ffee00-0000-4000-8000-000000000001';

before(() => {
  buildBinaries();
  mkdirSync(artifacts, { recursive: true });
});

test('import a ChatGPT export in Settings, then find a word from it', inApp(async (app) => {
  const { page } = app;
  await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.waitFor();
  const section = dialog.getByRole('region', { name: 'Import conversations' });
  const input = section.getByLabel('File to import');
  await input.setInputFiles(fixture);
  const summary = section.locator('.import-conversations-result');
  await summary.waitFor({ timeout: 10000 });
  assert.equal(
    await summary.innerText(),
    'Imported 3 conversations (10 messages). 3 messages that were not text (system notes, tool calls and their output) were left out.',
  );
  assert.equal(await summary.getAttribute('role'), 'status');
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: join(artifacts, 'import-summary.png'), animations: 'disabled', caret: 'hide' });

  // The sidebar lists them at once (the "threads" event).
  const history = page.getByRole('navigation', { name: 'Conversation history' });
  await history.getByText('Keeping a sourdough starter').waitFor({ timeout: 10000 });
  await history.getByText('Which tram is this?').waitFor();

  // The same file again adds nothing.
  await input.setInputFiles(fixture);
  await page.waitForFunction(
    () => document.querySelector('.import-conversations-result')?.textContent === 'Nothing new: all 3 conversations were already here.',
    null,
    { timeout: 10000 },
  );
  assert.equal((await app.api('ListThreads', '', 50)).threads.length, 3);

  // A word only the file has: the search finds it and opens its conversation.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await page.keyboard.press('Control+k');
  await page.waitForFunction(() => document.activeElement?.id === 'sidebar-search-input');
  await page.keyboard.type('levain');
  const results = page.getByRole('list', { name: 'Search results for levain' });
  await results.waitFor({ timeout: 10000 });
  const hits = results.getByRole('button');
  assert.equal(await hits.count(), 1);
  assert.match(await hits.first().innerText(), /Keeping a sourdough starter/);
  await hits.first().click();
  await page.getByRole('main', { name: 'Keeping a sourdough starter' }).waitFor({ timeout: 10000 });
  const answer = page.locator(`[data-message-id="${sourdough}-a2"]`);
  await answer.waitFor({ timeout: 5000 });
  assert.match(await answer.innerText(), /the levain slows down/);

  // The edited question keeps both versions: this is the second.
  const question = page.locator('article[aria-label="You said"]').filter({ hasText: 'in a cold kitchen' });
  await question.waitFor();
  const versions = question.getByRole('group', { name: 'Versions' });
  assert.equal((await versions.locator('.visually-hidden').innerText()).trim(), 'Version 2 of 2');
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await page.getByText('Once a day at room temperature is usual.').waitFor({ timeout: 10000 });
}));
