// User story: I use Juncture with a screen reader and the keyboard. axe-core
// checks the main screens — a chat with a streamed answer (light and dark),
// an approval card, a question card, every Settings tab, search results —
// and none may have a serious or critical violation (every violation is
// printed: id, impact, target, help; minor and moderate ones are allowed).
// The finished answer is announced in the status region. A screenshot with
// the focus on a card goes to e2e/artifacts/a11y-card-focus.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildBinaries, launch, send, askUserLanded } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const artifacts = join(import.meta.dirname, 'artifacts');

let app;
let landed;
before(async () => {
  mkdirSync(artifacts, { recursive: true });
  buildBinaries();
  app = await launch({ settings: { enableWriteTools: true, theme: 'light' } });
  landed = await askUserLanded(app);
  await app.page.reload();
});
after(() => app?.close());

const composer = (page) => page.getByRole('textbox', { name: 'Message' });
const settingsDialog = (page) => page.getByRole('dialog', { name: 'Settings' });

// axe runs on the whole document; serious and critical violations fail.
async function check(page, screen) {
  // The page's content security policy refuses an injected <script> (addScriptTag):
  // the source is evaluated through the DevTools protocol instead.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // Animations and transitions settle first (a half-faded colour is no contrast).
  await page.waitForTimeout(350);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary?.split('\n').slice(0, 3).join(' ') })),
    }));
  });
  for (const v of violations) {
    console.log(`# [${screen}] ${v.impact} ${v.id}: ${v.help}`);
    for (const n of v.nodes.slice(0, 8)) console.log(`#     ${n.target} — ${n.summary ?? ''}`);
    if (v.nodes.length > 8) console.log(`#     … and ${v.nodes.length - 8} more`);
  }
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target).join(', ')}`), [], `${screen}: serious or critical accessibility violations`);
}

async function setTheme(theme) {
  const cur = await app.api('GetSettings');
  await app.api('SaveSettings', { ...cur.settings, apiKey: '', theme });
  await app.page.reload();
  await composer(app.page).waitFor({ timeout: 15000 });
}

test('a chat with a streamed answer: the answer is announced once finished; no serious violation, light and dark', async () => {
  const { page } = app;
  await composer(page).waitFor({ timeout: 15000 });
  // One h1 on the new-chat screen too.
  assert.equal(await page.locator('h1').count(), 1);
  await check(page, 'new chat');
  await send(page, 'Tell me about the aardvark migration season');
  const status = page.getByTestId('announcer');
  await page.waitForFunction(() => document.querySelector('[data-testid="announcer"]')?.textContent?.startsWith('Answer finished'), null, { timeout: 20000 });
  assert.equal(await status.getAttribute('role'), 'status');
  assert.equal(await status.getAttribute('aria-live'), 'polite');
  const said = await status.textContent();
  assert.match(said, /^Answer finished: \S/);
  assert.ok(said.length <= 'Answer finished: '.length + 205, `announced too much: ${said.length} characters`);
  // The message list is not read token by token.
  assert.equal(await page.locator('[aria-live="polite"], [aria-live="assertive"]').filter({ has: page.getByRole('article') }).count(), 0);
  // One h1 on the screen: the conversation's title.
  assert.equal(await page.locator('h1').count(), 1);
  await check(page, 'chat, light');
  // Reloaded (history), nothing is announced.
  await setTheme('dark');
  await page.getByRole('article', { name: 'Juncture said' }).first().waitFor({ timeout: 15000 });
  assert.equal((await status.textContent()).trim(), '');
  await check(page, 'chat, dark');
  await setTheme('light');
  assert.deepEqual(app.consoleErrors, []);
});

test('an approval card takes focus, is announced, has no serious violation; focus returns to the composer', async () => {
  const { page } = app;
  await page.keyboard.press('Control+n');
  await composer(page).waitFor({ timeout: 10000 });
  await send(page, 'write a note');
  const card = page.getByRole('article', { name: 'Approval for write_file' });
  await card.waitFor({ timeout: 15000 });
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Approval for write_file', null, { timeout: 5000 });
  await page.waitForFunction(() => document.querySelector('[data-testid="announcer"]')?.textContent?.includes('Approval needed: write_file'), null, { timeout: 5000 });
  // Tab moves into the card's buttons, in the order they are shown.
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => document.activeElement?.closest('article')?.getAttribute('aria-label'));
  assert.equal(first, 'Approval for write_file', 'Tab left the card');
  await page.screenshot({ path: join(artifacts, 'a11y-card-focus.png'), animations: 'disabled', caret: 'hide' });
  await check(page, 'approval card');
  await setTheme('dark');
  await card.waitFor({ timeout: 15000 });
  await check(page, 'approval card, dark');
  await setTheme('light');
  await card.getByRole('button', { name: 'Allow once' }).click();
  await card.waitFor({ state: 'detached', timeout: 10000 });
  await page.waitForFunction(() => document.activeElement === document.querySelector('.composer textarea'), null, { timeout: 5000 });
});

test('a question card takes focus, is announced, works with the arrows, has no serious violation', async (t) => {
  if (landed !== true) return t.skip(String(landed));
  const { page } = app;
  await page.keyboard.press('Control+n');
  await composer(page).waitFor({ timeout: 10000 });
  await send(page, 'ask me something');
  const card = page.getByRole('article', { name: 'Question' });
  await card.waitFor({ timeout: 15000 });
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Question', null, { timeout: 5000 });
  await page.waitForFunction(() => document.querySelector('[data-testid="announcer"]')?.textContent?.startsWith('Question: '), null, { timeout: 5000 });
  await check(page, 'question card');
  // Tab reaches the radio group; the arrows choose.
  const radio = card.getByRole('radio').first();
  await radio.focus();
  await page.keyboard.press('ArrowDown');
  const checked = await page.evaluate(() => document.activeElement?.getAttribute('type') === 'radio' && document.activeElement.checked);
  assert.ok(checked, 'the arrow did not choose the next option');
  await card.getByRole('button', { name: 'Submit answer', exact: true }).click();
  await card.waitFor({ state: 'detached', timeout: 10000 });
  await page.waitForFunction(() => document.activeElement === document.querySelector('.composer textarea'), null, { timeout: 5000 });
});

test('Settings, every tab, has no serious violation', async () => {
  const { page } = app;
  await page.keyboard.press('Control+,');
  const dialog = settingsDialog(page);
  await dialog.waitFor({ timeout: 10000 });
  for (const name of ['General', 'Tool servers (MCP)', 'Endpoints', 'Presets']) {
    await dialog.getByRole('tab', { name }).click();
    await page.waitForFunction((n) => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent?.includes(n), name);
    await check(page, `Settings: ${name}`);
  }
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: 5000 });
});

test('search results have no serious violation', async () => {
  const { page } = app;
  await page.keyboard.press('Control+k');
  await page.waitForFunction(() => document.activeElement?.id === 'sidebar-search-input');
  await page.keyboard.type('aardvark');
  const results = page.getByRole('list', { name: 'Search results for aardvark' });
  await results.waitFor({ timeout: 10000 });
  await results.getByRole('button').first().waitFor();
  await check(page, 'search results');
  await page.keyboard.press('Escape');
  assert.deepEqual(app.consoleErrors, []);
});
