// Drives the app (browser mode, fake model) through its main states and
// writes docs/screenshots/<state>.png at 1280×800. Run with `make screenshots`.
// A state the app cannot reach yet is skipped with a note.
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBinaries, buildUnbind, unbindDatabase, launch, send, latestThread, openThread, askUserLanded } from './harness.mjs';

const out = resolve(import.meta.dirname, '../docs/screenshots');
mkdirSync(out, { recursive: true });
if (!process.env.SKIP_BUILD) {
  buildBinaries();
  buildUnbind();
}

// A short, stable data folder: its workspace path shows in the approval card.
const dir = join(tmpdir(), 'juncture-screens');
rmSync(dir, { recursive: true, force: true });
const app = await launch({ dir, settings: { enableWriteTools: true, theme: 'light' } });
const { page } = app;
const written = [];
const skipped = [];

async function shot(name) {
  // Let streaming marks, focus rings and transitions settle.
  await page.mouse.move(1270, 790);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(out, `${name}.png`), animations: 'disabled', caret: 'hide' });
  written.push(name);
}

async function idle() {
  const tid = await latestThread(app);
  await app.waitThread(tid, (v) => !v.running && v.thread.title);
  return tid;
}

async function newChat() {
  await page.keyboard.press('Control+n');
  await page.getByRole('textbox', { name: /message/i }).waitFor();
}

try {
  // A few earlier conversations so the sidebar is not empty.
  for (const text of ['Plan a weekend hiking trip in the Alps', 'Compare sourdough starters for rye bread']) {
    const t = await app.api('NewThread', '');
    await app.api('SendInput', t.id, text);
    await app.waitThread(t.id, (v) => !v.running && v.thread.title);
  }
  await page.reload();

  // chat: the demo essay (headings, list, table, code block). Not the
  // greeting or the default answer: their emoji have no glyph without an
  // emoji font (the test image has DejaVu only).
  await newChat();
  await send(page, 'Write me a long essay about working offline');
  await page.getByText(/This essay was streamed by/).waitFor({ timeout: 30000 });
  await idle();
  await shot('chat');

  // approval: write_file with its diff preview.
  await newChat();
  await send(page, 'Please write a note about the trip');
  const card = page.getByRole('article', { name: 'Approval for write_file' });
  await card.waitFor({ timeout: 15000 });
  await idle();
  await page.evaluate(() => document.activeElement?.blur());
  await shot('approval');
  await card.getByRole('button', { name: 'Allow once' }).click();
  await page.getByText(/The write_file tool returned/).waitFor({ timeout: 15000 });

  // question: a form generated from the question's JSON Schema.
  const landed = await askUserLanded(app);
  if (landed === true) {
    await page.reload();
    await newChat();
    await send(page, 'Before we start, fill in a form for me');
    const q = page.getByRole('article', { name: 'Question' });
    await q.waitFor({ timeout: 15000 });
    await idle();
    await q.getByRole('textbox', { name: /Name/ }).fill('Ada');
    await page.evaluate(() => document.activeElement?.blur());
    await shot('question');
    await q.getByRole('button', { name: 'Cancel' }).click().catch(() => {});
  } else {
    skipped.push(['question', landed]);
  }

  // unbound: an approval whose binding another Juncture version wrote (an
  // unknown binding version, see e2e/unbind): a status line, no controls,
  // and the composer stays free.
  await page.reload();
  await page.getByRole('textbox', { name: /message/i }).waitFor();
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.getByRole('main', { name: 'New chat' }).waitFor();
  await send(page, 'Write a packing list for the trip');
  await page.getByRole('article', { name: 'Approval for write_file' }).waitFor({ timeout: 15000 });
  const utid = await idle();
  await app.stopApp();
  unbindDatabase(app);
  await app.startApp();
  await page.reload();
  await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
  const waiting = page.getByRole('region', { name: 'Waiting for your decision' });
  if (!(await waiting.waitFor({ timeout: 5000 }).then(() => true, () => false))) {
    await openThread(page, (await app.api('GetThread', utid)).thread.title);
  }
  await waiting.getByRole('status').first().waitFor({ timeout: 10000 });
  if (await page.getByRole('article', { name: /^Approval for/ }).count()) throw new Error('unbound: an approval card is still shown');
  await page.evaluate(() => document.activeElement?.blur());
  await shot('unbound');

  // search: Ctrl+K, a word from an earlier chat, with a chat open.
  await page.reload();
  await page.getByRole('textbox', { name: /message/i }).waitFor();
  await page.getByRole('navigation', { name: 'Conversation history' }).getByRole('button', { name: /Hiking/ }).first().click();
  await page.getByText(/weekend hiking trip/).first().waitFor();
  await page.keyboard.press('Control+k');
  await page.keyboard.type('sourdough');
  await page.getByRole('list', { name: 'Search results for sourdough' }).locator('mark').first().waitFor({ timeout: 10000 });
  await shot('search');
  await page.keyboard.press('Escape');

  // settings: the dialog, with the permission rules section.
  await page.keyboard.press('Control+,');
  await page.getByRole('dialog', { name: 'Settings' }).waitFor();
  await shot('settings');

  for (const n of written) console.log(`wrote docs/screenshots/${n}.png`);
  for (const [n, why] of skipped) console.log(`skipped ${n}: ${why}`);
  if (app.consoleErrors.length) console.log('page errors:', app.consoleErrors);
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
