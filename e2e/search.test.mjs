// User story: I remember a word from an old conversation. Ctrl+K focuses the
// sidebar search; the hits show the matching words highlighted; clicking a
// hit opens that conversation and flashes the message.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { buildBinaries, send, latestThread } from './harness.mjs';
import { inApp } from './story.mjs';

before(() => buildBinaries());

test('search the history from the sidebar and jump to a hit', inApp(async (app) => {
  const { page } = app;
  // Two conversations, each with a distinctive word (and no demo trigger words).
  await send(page, 'Tell me about the aardvark migration season');
  await page.getByText('I\'m the offline demo model', { exact: false }).first().waitFor({ timeout: 15000 });
  const first = await latestThread(app);
  await app.waitThread(first, (v) => !v.running && v.thread.title);
  await page.keyboard.press('Control+n');
  await page.waitForFunction(() => !document.querySelector('main')?.innerText.includes('aardvark'), null, { timeout: 5000 });
  await send(page, 'What do zephyr lighthouse keepers eat');
  await page.getByText(/zephyr lighthouse/).nth(1).waitFor({ timeout: 15000 });
  const second = await latestThread(app);
  assert.notEqual(first, second, 'Ctrl+N did not start a new conversation');
  await app.waitThread(second, (v) => !v.running);
  const firstTitle = (await app.api('GetThread', first)).thread.title;

  // Ctrl+K focuses the search box.
  await page.keyboard.press('Control+k');
  const box = page.getByRole('searchbox', { name: 'Search conversations' });
  await page.waitForFunction(() => document.activeElement?.id === 'sidebar-search-input');
  await page.keyboard.type('aardvark');
  const results = page.getByRole('list', { name: 'Search results for aardvark' });
  await results.waitFor({ timeout: 10000 });
  const hits = results.getByRole('button');
  await hits.first().waitFor();
  // Only the first conversation matches; the match is a <mark>, the rest plain text.
  const marks = await results.locator('mark').allInnerTexts();
  assert.ok(marks.length >= 1, 'no highlighted match');
  for (const m of marks) assert.equal(m.toLowerCase(), 'aardvark');
  const hitTexts = await hits.allInnerTexts();
  assert.ok(hitTexts.every((t) => !t.includes('zephyr')), `a hit from the other chat: ${hitTexts}`);
  assert.ok(hitTexts.some((t) => t.includes(firstTitle)), `hits do not name the chat "${firstTitle}": ${hitTexts}`);
  // The snippet is text, never injected HTML: the only element children are the marks and spans.
  assert.equal(await results.locator('.search-hit-snippet *:not(mark):not(span)').count(), 0);

  // Clicking the user's message hit opens the first chat and highlights it.
  const hit = hits.filter({ hasText: 'You:' }).first();
  const hitsView = await app.api('SearchHistory', 'aardvark', 20);
  const userHit = hitsView.find((h) => h.role === 'user');
  assert.ok(userHit, `SearchHistory found no user message: ${JSON.stringify(hitsView)}`);
  await hit.click();
  await page.getByRole('main', { name: firstTitle }).waitFor({ timeout: 10000 });
  const msg = page.locator(`[data-message-id="${userHit.messageId}"]`);
  await msg.waitFor({ timeout: 5000 });
  assert.match(await msg.getAttribute('class'), /is-highlighted/, 'the hit message is not highlighted');
  assert.ok(await msg.isVisible());
  assert.match(await msg.innerText(), /aardvark migration season/);

  // Escape clears the search and the history comes back.
  await box.focus();
  await page.keyboard.press('Escape');
  await page.getByRole('navigation', { name: 'Conversation history' }).waitFor({ timeout: 5000 });
}));
