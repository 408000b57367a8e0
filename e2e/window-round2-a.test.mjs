// Issue 22, round two of the window (part a): what a new user tripped over.
// Each test is one story, named after the item:
//   1  typing after closing Settings with the mouse reaches the composer;
//   2  a message sent while scrolled up is shown, and the answer followed;
//   3  a chat exported as JSON imports back from the window (one control
//      for Juncture, ChatGPT and Claude files), and 24: errors name the
//      file chosen; 27: a Claude text block keeps its line breaks;
//   5  the workspace "Change" opens Settings at the workspace field;
//  14  "?" and the menu show the keyboard shortcuts; the chat's "…" is in
//      the tab order;
//  16  "↓ Latest" is not shown when the whole conversation fits;
//  21  at 800×600 an approval card leaves room for the conversation;
//  22  the Settings dialog keeps its height and place between tabs;
//  23  a new chat is scrolled into view in the sidebar.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBinaries, launch, send, latestThread, conversation } from './harness.mjs';
import { inApp } from './story.mjs';

before(() => {
  if (!process.env.SKIP_BUILD) buildBinaries();
});

const composerOf = (page) => page.getByRole('textbox', { name: /message/i });

/** The part of el's box inside the conversation's scroller, in px (0: not shown). */
function visibleIn(page, selector) {
  return page.evaluate((sel) => {
    const els = [...document.querySelectorAll(sel)];
    const el = els.at(-1);
    const sc = document.querySelector('.vlist');
    if (!el || !sc) return 0;
    const a = el.getBoundingClientRect();
    const b = sc.getBoundingClientRect();
    return Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  }, selector);
}

for (const how of ['Close', 'Close settings']) {
  test(`item 1: typing after closing Settings with the mouse (${how}) reaches the composer`, inApp(async (app) => {
    const { page } = app;
    const composer = composerOf(page);
    await composer.waitFor({ timeout: 15000 });
    await composer.click();
    await page.keyboard.press('Control+,');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: how, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Real keystrokes, as a person types them.
    await page.keyboard.type('typed after closing');
    assert.equal(await composer.inputValue(), 'typed after closing');
  }));
}

test('item 2: a message sent while scrolled up is shown, and the answer followed', inApp(async (app) => {
  const { page } = app;
  const t = await app.api('NewThread', '');
  for (let i = 0; i < 2; i++) {
    await app.api('SendInput', t.id, 'Write me a long essay about working offline');
    await app.waitThread(t.id, (v) => !v.running && v.messages.filter((m) => m.role === 'assistant').length === i + 1);
  }
  await page.reload();
  await page.getByRole('navigation', { name: 'Conversation history' }).getByRole('button', { name: /essay|offline/i }).first().click();
  await conversation(page).getByText(/This essay was streamed by/).last().waitFor({ timeout: 15000 });
  // Scroll to the top: far from the end.
  await page.locator('.vlist').evaluate((el) => {
    el.scrollTop = 0;
    el.dispatchEvent(new Event('scroll'));
  });
  await page.getByRole('button', { name: 'Jump to latest message' }).waitFor();
  await send(page, 'A question sent from far above');
  // My message is shown at once.
  await page.waitForFunction(() => {
    const mine = [...document.querySelectorAll('article[aria-label="You said"]')].find((a) => a.textContent?.includes('A question sent from far above'));
    const sc = document.querySelector('.vlist');
    if (!mine || !sc) return false;
    const a = mine.getBoundingClientRect();
    const b = sc.getBoundingClientRect();
    return a.bottom > b.top && a.top < b.bottom;
  }, null, { timeout: 5000 });
  // The answer is followed to its end.
  await app.waitThread(t.id, (v) => !v.running && v.messages.filter((m) => m.role === 'assistant').length === 3);
  await page.waitForFunction(() => {
    const sc = document.querySelector('.vlist');
    return sc && sc.scrollHeight - sc.scrollTop - sc.clientHeight < 60;
  }, null, { timeout: 5000 });
  assert.equal(await page.getByRole('button', { name: 'Jump to latest message' }).count(), 0);
}));

/** Opens Settings → General and returns the import control's file input. */
async function importInput(page) {
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.waitFor();
  const input = dialog.locator('input[type="file"]');
  await input.waitFor({ state: 'attached' });
  return { dialog, input };
}

test('item 3: a chat exported as JSON imports back from the window; item 24: errors name the file chosen', async () => {
  const app = await launch();
  const dir = mkdtempSync(join(tmpdir(), 'juncture-import-'));
  try {
    const { page } = app;
    await composerOf(page).waitFor({ timeout: 15000 });
    const t = await app.api('NewThread', '');
    await app.api('SendInput', t.id, 'Remember the word quetzalcoatl');
    await app.waitThread(t.id, (v) => !v.running && v.thread.title);
    const exp = await app.api('ExportThread', t.id, 'json');
    await app.api('DeleteThread', t.id);
    const file = join(dir, 'my saved chat.json');
    writeFileSync(file, exp.content);

    const { dialog, input } = await importInput(page);
    await input.setInputFiles(file);
    const result = dialog.locator('.import-conversations-result');
    await result.waitFor({ timeout: 10000 });
    assert.equal(await result.getAttribute('role'), 'status', await result.innerText());
    assert.match(await result.innerText(), /^Imported /);
    const { threads } = await app.api('ListThreads', '', 50);
    assert.equal(threads.length, 1);
    const v = await app.api('GetThread', threads[0].id);
    assert.ok(v.messages.some((m) => m.content.includes('quetzalcoatl')));

    // A broken file: the error names it, not "conversations.json".
    const broken = join(dir, 'claude-export-2024.json');
    writeFileSync(broken, '[\n  {"uuid": "x", "chat_messages": 5}\n]');
    await input.setInputFiles(broken);
    await page.waitForFunction(() => document.querySelector('.import-conversations-result')?.getAttribute('role') === 'alert', null, { timeout: 10000 });
    const err = await result.innerText();
    assert.match(err, /claude-export-2024\.json/);
    assert.doesNotMatch(err, /conversations\.json/);
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});


test('item 5: the workspace "Change" opens Settings at the workspace field, whatever tab was used last', inApp(async (app) => {
  const { page } = app;
  await composerOf(page).waitFor({ timeout: 15000 });
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Updates' }).click();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Change the workspace folder' }).click();
  await dialog.waitFor();
  assert.equal(await dialog.getByRole('tab', { name: 'General' }).getAttribute('aria-selected'), 'true');
  await page.waitForFunction(() => document.activeElement?.id?.endsWith('-workspace'), null, { timeout: 5000 });
  const field = dialog.getByLabel('Workspace folder');
  const [box, body] = await Promise.all([field.boundingBox(), dialog.locator('.settings-body').boundingBox()]);
  assert.ok(box && body && box.y >= body.y && box.y + box.height <= body.y + body.height, 'the field is scrolled into view');
}));

test('item 14: "?" and the sidebar show the keyboard shortcuts; the open chat\'s "…" is in the tab order', inApp(async (app) => {
  const { page } = app;
  const composer = composerOf(page);
  await composer.waitFor({ timeout: 15000 });
  await send(page, 'hello');
  const tid = await latestThread(app);
  const v = await app.waitThread(tid, (x) => !x.running && x.thread.title);
  // "?" in the composer is a character.
  await composer.focus();
  await page.keyboard.type('?');
  assert.equal(await composer.inputValue(), '?');
  await composer.fill('');
  // Anywhere else it opens the sheet.
  await conversation(page).focus();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await sheet.waitFor();
  const text = await sheet.innerText();
  for (const k of ['Ctrl\n+\nK', 'Ctrl\n+\nN', 'Ctrl\n+\nB', 'Ctrl\n+\n,', 'Esc', 'Shift\n+\nF10', 'F2', '↑', '↓']) {
    assert.ok(text.replace(/\s*\+\s*/g, '\n+\n').includes(k), `the sheet lists ${k}: ${text}`);
  }
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'hidden' });
  // From the sidebar.
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await sheet.waitFor();
  await sheet.getByRole('button', { name: 'Close keyboard shortcuts' }).click();
  await sheet.waitFor({ state: 'hidden' });
  // Tab from the open chat's row reaches its "…".
  const nav = page.getByRole('navigation', { name: 'Conversation history' });
  await nav.getByRole('button', { name: v.thread.title, exact: true }).focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Options for ${v.thread.title}`);
  await page.keyboard.press('Enter');
  await page.getByRole('menu', { name: `Options for ${v.thread.title}` }).waitFor();
}));

test('item 16: "↓ Latest" is not shown when the whole conversation fits (a search hit opened)', inApp(async (app) => {
  const { page } = app;
  await composerOf(page).waitFor({ timeout: 15000 });
  const t = await app.api('NewThread', '');
  await app.api('SendInput', t.id, 'Remember the word zanzibar');
  await app.waitThread(t.id, (v) => !v.running && v.thread.title);
  await page.keyboard.press('Control+k');
  await page.keyboard.type('zanzibar');
  const results = page.getByRole('list', { name: 'Search results for zanzibar' });
  await results.getByRole('button').first().click();
  await conversation(page).getByText('Remember the word zanzibar').first().waitFor({ timeout: 10000 });
  await page.waitForTimeout(1200);
  assert.equal(await page.getByRole('button', { name: 'Jump to latest message' }).count(), 0);
}));

test('item 21: at 800×600 an approval card leaves room for the conversation; "Always allow…" keeps its title below the header', inApp({ settings: { enableWriteTools: true } }, async (app) => {
  const { page } = app;
  await page.setViewportSize({ width: 800, height: 600 });
  await composerOf(page).waitFor({ timeout: 15000 });
  await send(page, 'Please write a note about the trip');
  const card = page.getByRole('article', { name: 'Approval for write_file' });
  await card.waitFor({ timeout: 15000 });
  await page.waitForTimeout(500);
  const room = await visibleIn(page, '.vlist');
  assert.ok(room >= 150, `the conversation keeps ${room} px`);
  await card.getByRole('button', { name: /Always allow/ }).click();
  await card.getByRole('button', { name: 'Always allow', exact: true }).waitFor();
  await page.waitForTimeout(400);
  const [head, title] = await Promise.all([page.locator('.chat-head').boundingBox(), card.locator('.icard-title').boundingBox()]);
  assert.ok(title.y >= head.y + head.height, `the title (${title.y}) is under the header (ends ${head.y + head.height})`);
}));

test('item 22: the Settings dialog keeps its height and place between tabs', inApp(async (app) => {
  const { page } = app;
  await composerOf(page).waitFor({ timeout: 15000 });
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.waitFor();
  const first = await dialog.boundingBox();
  for (const tab of ['Tool servers (MCP)', 'Endpoints', 'Presets', 'Updates', 'General']) {
    await dialog.getByRole('tab', { name: tab }).click();
    await page.waitForTimeout(150);
    const b = await dialog.boundingBox();
    assert.ok(Math.abs(b.y - first.y) <= 1 && Math.abs(b.height - first.height) <= 1, `${tab}: ${JSON.stringify(b)} vs ${JSON.stringify(first)}`);
  }
}));

test('item 23: a new chat is scrolled into view in the sidebar', inApp(async (app) => {
  const { page } = app;
  for (let i = 0; i < 28; i++) {
    const t = await app.api('NewThread', '');
    await app.api('RenameThread', t.id, `Older chat ${i + 1}`);
  }
  await page.reload();
  const nav = page.getByRole('navigation', { name: 'Conversation history' });
  await nav.getByRole('button', { name: 'Older chat 1', exact: true }).waitFor({ timeout: 15000 });
  await page.locator('.sidebar-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.keyboard.press('Control+n');
  await send(page, 'A brand new question');
  await page.waitForFunction(() => {
    const row = document.querySelector('#sidebar .titem.is-active');
    const sc = document.querySelector('.sidebar-scroll');
    if (!row || !sc) return false;
    const a = row.getBoundingClientRect();
    const b = sc.getBoundingClientRect();
    return a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  }, null, { timeout: 10000 });
}));
