// User stories for the window's rough edges (issue 14, items 11, 12, 13, 15,
// 16, 17 and 21): search by keyboard that lands on the matched words (also
// inside a collapsed tool result), Test connection that says what is wrong,
// Settings that never lose or misreport an edit, an endpoint error said once,
// an Undo toast that covers nothing, a clear page without the access token,
// and an empty chat that helps. Screenshots (light and dark, 800×600 and
// 1920×1080) go to e2e/artifacts/window-settings-*.png.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { buildBinaries, launch, send, latestThread } from './harness.mjs';
import { inApp } from './story.mjs';
import { freePort, start, stop, waitFor } from './procs.mjs';

const root = resolve(import.meta.dirname, '..');
const artifacts = join(import.meta.dirname, 'artifacts');
mkdirSync(artifacts, { recursive: true });

before(() => {
  if (!process.env.SKIP_BUILD) buildBinaries(); // SKIP_BUILD=1: use the binaries in build/bin as they are
});

const SIZES = [
  [800, 600],
  [1920, 1080],
];

// shots saves the theme (SaveSettings, as the Settings screen does), reloads,
// rebuilds the state with setup(), and writes window-settings-<name>-<theme>-<w>x<h>.png.
async function shots(app, name, setup, { themes = ['light', 'dark'], viaSettings = true } = {}) {
  const { page } = app;
  for (const theme of themes) {
    if (viaSettings) {
      const cur = await app.api('GetSettings');
      const keep = Object.fromEntries(Object.entries(cur.settings).filter(([k]) => cur.sources[k] !== 'environment'));
      await app.api('SaveSettings', { ...cur.settings, ...keep, apiKey: '', theme });
    } else {
      await page.emulateMedia({ colorScheme: theme });
    }
    await page.setViewportSize({ width: 1280, height: 800 }); // the state is built with the sidebar shown
    await page.reload();
    await setup();
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.waitForTimeout(350);
      await page.screenshot({ path: join(artifacts, `window-settings-${name}-${theme}-${w}x${h}.png`), caret: 'hide' });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

// launchBare starts the app with no model in the environment (the person
// sets one up in Settings), optionally with the fake model running at
// app.fakeUrl, and no JUNCTURE_WORKSPACE (the default workspace applies).
async function launchBare({ fake = false } = {}) {
  const data = mkdtempSync(join(tmpdir(), 'juncture-e2e-bare-'));
  for (const d of ['data', 'config', 'cache', 'home']) mkdirSync(join(data, d), { recursive: true });
  let fakeProc = null;
  let fakeUrl = '';
  if (fake) {
    const fp = await freePort();
    fakeProc = start(join(root, 'build/bin/fakellm'), ['-addr', `127.0.0.1:${fp}`], {}, 'fakellm');
    fakeUrl = `http://127.0.0.1:${fp}/v1`;
    await waitFor(`${fakeUrl}/models`);
  }
  const port = await freePort();
  const token = 'e2e-bare';
  const env = {
    HOME: join(data, 'home'), XDG_DATA_HOME: join(data, 'data'), XDG_CONFIG_HOME: join(data, 'config'), XDG_CACHE_HOME: join(data, 'cache'),
    JUNCTURE_TOKEN: token, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', JUNCTURE_MODEL: '', JUNCTURE_WORKSPACE: '',
  };
  const proc = start(join(root, 'build/bin/juncture-web'), ['serve', '--addr', `127.0.0.1:${port}`], env, 'juncture');
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/`);
  const api = async (method, ...args) => {
    const r = await fetch(`${base}/api/call/${method}`, {
      method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(args),
    });
    const body = await r.json().catch(() => null);
    if (!r.ok) throw new Error(`${method}: ${JSON.stringify(body)}`);
    return body;
  };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(`${base}/#token=${token}`);
  return {
    page, api, fakeUrl, consoleErrors, browser,
    async close() {
      await browser.close();
      await stop(proc);
      await stop(fakeProc);
      rmSync(data, { recursive: true, force: true });
    },
  };
}

const settingsDialog = (page) => page.getByRole('dialog', { name: 'Settings' });
// The control a <label> names (a section is labelled by its heading too: "Model").
const field = (page, label) => settingsDialog(page).getByLabel(label, { exact: true }).and(page.locator('input, select'));
const fieldRow = (page, label) => settingsDialog(page).locator('.set-field').filter({ has: page.getByLabel(label, { exact: true }).and(page.locator('input, select')) });

async function openSettings(page) {
  await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 }); // the app is up
  await page.keyboard.press('Control+,');
  await settingsDialog(page).waitFor();
  // The dialog opens on the tab last shown: these stories start on General.
  const general = settingsDialog(page).getByRole('tab', { name: 'General' });
  if ((await general.getAttribute('aria-selected')) !== 'true') await general.click();
  await field(page, 'Tool steps per turn (1–200)').waitFor();
}

test('search: ↑/↓ and Enter move through the hits; a tool-result hit opens its block on the highlighted words', inApp(async (app) => {
  const { page } = app;
  writeFileSync(join(app.workspace, 'zephyrine-ledger.txt'), 'numbers\n');
  // A chat whose tool result (list_files) names the file, and two more chats.
  await send(page, 'Please list files here');
  await page.getByText(/The list_files tool returned/).first().waitFor({ timeout: 20000 });
  const toolChat = await latestThread(app);
  await app.waitThread(toolChat, (v) => !v.running && v.thread.title);
  const filler = 'We walked along the river for a long while and talked about maps, trains, lunch, old friends, the weather and the price of coffee before ';
  for (const text of ['Tell me about the aardvark migration season', `${filler.repeat(2)}the quokka finally appeared`]) {
    await page.keyboard.press('Control+n');
    await send(page, text);
    await page.getByText(/offline demo model/).first().waitFor({ timeout: 20000 });
    await app.waitThread(await latestThread(app), (v) => !v.running && v.thread.title);
  }
  const toolTitle = (await app.api('GetThread', toolChat)).thread.title;

  // The snippet never hides its match: the quokka is far into a long message.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('quokka');
  const quokka = page.getByRole('list', { name: 'Search results for quokka' });
  await quokka.waitFor({ timeout: 10000 });
  const clip = await quokka.locator('.search-hit-snippet').first().evaluate((s) => {
    const m = s.querySelector('mark').getBoundingClientRect();
    const b = s.getBoundingClientRect();
    return { markBottom: m.bottom, boxBottom: b.bottom, text: s.textContent };
  });
  assert.ok(clip.markBottom <= clip.boxBottom + 0.5, `the match is clipped away: ${JSON.stringify(clip)}`);
  assert.match(clip.text, /^You: …/, 'the long lead is cut, not the match');

  // Keyboard only: ↓ to the tool result's hit, Enter opens it.
  await page.keyboard.press('Control+a');
  await page.keyboard.type('zephyrine');
  const results = page.getByRole('list', { name: 'Search results for zephyrine' });
  await results.locator('mark', { hasText: /zephyrine/i }).first().waitFor({ timeout: 10000 });
  const box = page.getByRole('searchbox', { name: 'Search conversations' });
  const hitTexts = await results.getByRole('button').allInnerTexts();
  const toolIndex = hitTexts.findIndex((t) => /Tool:/.test(t));
  assert.ok(toolIndex >= 0, `no tool-result hit: ${hitTexts}`);
  for (let i = 0; i <= toolIndex; i++) await page.keyboard.press('ArrowDown');
  const activeId = await box.getAttribute('aria-activedescendant');
  assert.match(await page.locator(`[id="${activeId}"]`).innerText(), /Tool:/);
  assert.match(await page.locator(`[id="${activeId}"]`).getAttribute('class'), /is-active/);
  await page.keyboard.press('Enter');
  await page.getByRole('main', { name: toolTitle }).waitFor({ timeout: 10000 });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'sidebar-search-input', 'the search box keeps the focus');
  const painted = async () =>
    page.evaluate(() => {
      const h = CSS.highlights.get('search-hit');
      if (!h) return [];
      const scroller = document.querySelector('.vlist').getBoundingClientRect();
      return [...h].map((r) => {
        const rect = r.getBoundingClientRect();
        const closed = [];
        for (let el = r.startContainer.parentElement; el; el = el.parentElement) if (el.tagName === 'DETAILS' && !el.open) closed.push(el.className);
        return {
          text: r.toString(),
          visible: rect.height > 0 && rect.top >= scroller.top && rect.bottom <= scroller.bottom,
          closed,
          inToolResult: !!r.startContainer.parentElement.closest('.tool-result'),
        };
      });
    });
  await page.waitForFunction(() => (CSS.highlights.get('search-hit')?.size ?? 0) > 0, null, { timeout: 5000 });
  await page.waitForTimeout(500);
  const marks = await painted();
  assert.ok(marks.length >= 1, 'no highlighted words');
  for (const m of marks) assert.equal(m.text.toLowerCase(), 'zephyrine');
  assert.ok(marks[0].inToolResult, `the first highlight is not in the tool result: ${JSON.stringify(marks)}`);
  assert.deepEqual(marks[0].closed, [], 'the tool block around the match is still collapsed');
  assert.ok(marks[0].visible, `the highlighted words are not scrolled into view: ${JSON.stringify(marks)}`);

  // ↓ Enter again: the next hit (the answer that quotes it) gets the highlight.
  if (hitTexts.length > toolIndex + 1) {
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(800);
    const next = await painted();
    assert.ok(next.length >= 1 && next.every((m) => m.text.toLowerCase() === 'zephyrine'));
  }

  await shots(app, 'search-hit', async () => {
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
    await page.keyboard.press('Control+k');
    await page.keyboard.type('zephyrine');
    await results.locator('mark', { hasText: /zephyrine/i }).first().waitFor({ timeout: 10000 });
    for (let i = 0; i <= toolIndex; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('main', { name: toolTitle }).waitFor({ timeout: 10000 });
    await page.waitForFunction(() => (CSS.highlights.get('search-hit')?.size ?? 0) > 0, null, { timeout: 5000 });
    await page.waitForTimeout(600);
  });
}));

test('Test connection says "not a URL", clears the field error once fixed, and counts "1 model available"', async () => {
  const app = await launchBare({ fake: true });
  try {
    const { page } = app;
    await page.getByRole('heading', { name: 'Connect a model to start' }).waitFor({ timeout: 15000 });
    await openSettings(page);
    const dialog = settingsDialog(page);
    const url = field(page, 'Base URL');
    await url.fill('not a url');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    const notUrl = 'This is not a URL: enter one like http://127.0.0.1:11434/v1';
    await dialog.getByText(`✗ ${notUrl}`).waitFor();
    assert.equal(await dialog.getByText('Enter the endpoint’s base URL first').count(), 0);
    assert.equal(await url.getAttribute('aria-invalid'), 'true');
    assert.equal(await dialog.getByRole('alert').innerText(), notUrl);
    // Fixing the value takes the error away at once.
    await url.fill(app.fakeUrl);
    assert.equal(await url.getAttribute('aria-invalid'), null);
    assert.equal(await dialog.getByRole('alert').count(), 0);
    assert.equal(await dialog.getByText(notUrl).count(), 0);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    const ok = dialog.locator('.set-test-result .ok');
    await ok.waitFor({ timeout: 10000 });
    assert.equal(await ok.innerText(), '✓ Connected: 1 model available.');
    // The model the endpoint offers is one click away; Save, and it works.
    await dialog.getByRole('button', { name: 'fake-model' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await app.close();
  }
});

test('Settings: defaults stay "default", theme previews live and reverts, Revoke has Undo, unsaved edits ask, errors scroll into view', async () => {
  const app = await launchBare({ fake: true });
  try {
    const { page, api } = app;
    await api('SaveSettings', { ...(await api('GetSettings')).settings, baseUrl: app.fakeUrl, model: 'fake-model' });
    // An "Always allow" rule to revoke: write_file approved with remember.
    const t = await api('NewThread', '');
    await api('SendInput', t.id, 'Please write a note about the trip');
    let view;
    for (let i = 0; i < 150; i++) {
      view = await api('GetThread', t.id);
      if (view.interrupts.length && !view.running) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(view.interrupts.length, 'no approval to answer');
    await api('Answer', t.id, { answers: [{ interruptId: view.interrupts[0].id, status: 'resolved', payload: { approved: true }, remember: { scope: 'tool' } }] });
    await page.reload();
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });

    await openSettings(page);
    const dialog = settingsDialog(page);
    // The workspace field names the real default instead of a made-up path.
    const ws = field(page, 'Workspace folder');
    assert.equal(await ws.inputValue(), '');
    assert.match(await ws.getAttribute('placeholder'), /Juncture folder in your Documents/);
    // Saving without touching the defaults keeps them "default".
    const chip = (label) => fieldRow(page, label).locator('.set-source');
    assert.equal(await chip('Tool steps per turn (1–200)').innerText(), 'default');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    assert.equal(await chip('Tool steps per turn (1–200)').innerText(), 'default');
    assert.equal(await chip('Workspace folder').innerText(), 'default');
    assert.equal(await chip('Base URL').innerText(), 'saved');

    // Theme: a click applies it at once; Close asks about the unsaved edit; Discard puts it back.
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? 'system');
    const before = await theme();
    await dialog.getByLabel('Dark', { exact: true }).check();
    assert.equal(await theme(), 'dark');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    const ask = dialog.getByRole('alertdialog');
    await ask.waitFor();
    assert.match(await ask.innerText(), /You have unsaved changes/);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Keep editing');
    // Esc closes the question, not the dialog (and keeps the edit).
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    assert.ok(await dialog.isVisible());
    assert.equal(await theme(), 'dark');
    await page.keyboard.press('Escape');
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await theme(), before, 'closing without saving did not put the saved theme back');

    // Revoke, Undo, Revoke: the rule goes only after its Undo window.
    await openSettings(page);
    await dialog.getByRole('tab', { name: 'Rules' }).click(); // rules have their own tab (issue 23)
    const rule = dialog.locator('.set-rules li').filter({ hasText: 'write_file' });
    await rule.getByRole('button', { name: 'Revoke' }).click();
    await rule.getByRole('button', { name: 'Undo' }).waitFor();
    assert.match(await rule.innerText(), /Revoked:/);
    await rule.getByRole('button', { name: 'Undo' }).click();
    await rule.getByRole('button', { name: 'Revoke' }).waitFor();
    assert.equal((await api('ListPermissionRules')).length, 1);
    await rule.getByRole('button', { name: 'Revoke' }).click();
    // Closing Settings carries out the waiting revoke.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    for (let i = 0; i < 50 && (await api('ListPermissionRules')).length; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal((await api('ListPermissionRules')).length, 0);

    // An invalid value far down the form: Save scrolls to its error.
    const invalid = async () => {
      await openSettings(page);
      const steps = field(page, 'Tool steps per turn (1–200)');
      await steps.fill('0');
      await dialog.locator('.settings-body').evaluate((b) => (b.scrollTop = 0));
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText('Enter a whole number from 1 to 200.').waitFor();
      await page.waitForTimeout(600); // smooth scroll
    };
    await page.setViewportSize({ width: 800, height: 600 });
    await invalid();
    const seen = await dialog.evaluate((d) => {
      const body = d.querySelector('.settings-body').getBoundingClientRect();
      const err = d.querySelector('.set-field.has-error .set-error').getBoundingClientRect();
      return { inView: err.top >= body.top && err.bottom <= body.bottom, focused: document.activeElement?.getAttribute('aria-invalid') };
    });
    assert.deepEqual(seen, { inView: true, focused: 'true' });
    await field(page, 'Tool steps per turn (1–200)').fill('30');
    assert.equal(await dialog.getByText('Enter a whole number from 1 to 200.').count(), 0);
    assert.equal(await dialog.getByText('Fix the fields marked in red').count(), 0);
    await page.keyboard.press('Escape');
    await dialog.getByRole('alertdialog').getByRole('button', { name: 'Discard changes' }).click();

    await shots(app, 'settings-error', invalid);
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await app.close();
  }
});

test('Settings in the demo (model set by the environment) explains the model fields', async () => {
  const app = await launch();
  try {
    const { page } = app;
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
    await openSettings(page);
    const dialog = settingsDialog(page);
    const note = dialog.locator('.set-env-note');
    await note.waitFor();
    assert.match(await note.innerText(), /offline demo/);
    assert.match(await note.innerText(), /make run/);
    assert.equal(await field(page, 'Model').getAttribute('readonly'), '');
    assert.match(await fieldRow(page, 'Model').innerText(), /Set by JUNCTURE_MODEL/);
    assert.equal(await dialog.getByLabel('Endpoint', { exact: true }).count(), 0, 'a preset menu that does nothing');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('✓ Connected: 1 model available.').waitFor({ timeout: 10000 });
    await page.screenshot({ path: join(artifacts, 'window-settings-settings-demo-light-1280x800.png') });
  } finally {
    await app.close();
  }
});

test('an endpoint error is said once, in the message: unreachable, or what the endpoint answered; with a way to Settings', async () => {
  const app = await launch();
  let srv;
  try {
    const { page } = app;
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
    const port = Number(new URL((await app.api('GetSettings')).settings.baseUrl).port);
    await stop(app.fake);
    await send(page, 'hello there');
    const note = page.locator('main .msg-error');
    await note.waitFor({ timeout: 20000 });
    await page.waitForTimeout(1500); // the resync after the failed run
    // What the eyes read: the screen reader's announcer (visually hidden) says it once more, on purpose.
    const text = await page.locator('main').evaluate((el) =>
      [...el.children].filter((c) => !c.classList.contains('visually-hidden')).map((c) => c.innerText).join('\n'));
    assert.match(await note.innerText(), new RegExp(`could not reach the model endpoint at 127\\.0\\.0\\.1:${port}`));
    assert.doesNotMatch(text, /returned an error/);
    assert.equal(text.split('connection refused').length - 1, 2, `the error shows more than once: ${text}`); // Go's text holds it twice
    assert.equal(await page.locator('main [role="alert"]:not([data-testid^="announcer"])').count(), 1);
    assert.equal(await page.locator('.thread-run-error').count(), 0);
    await page.screenshot({ path: join(artifacts, 'window-settings-endpoint-error-live-light-1280x800.png') });
    await note.getByRole('button', { name: 'Open Settings' }).click();
    await settingsDialog(page).waitFor();
    await page.keyboard.press('Escape');
    await settingsDialog(page).waitFor({ state: 'hidden' });

    await shots(app, 'endpoint-error', async () => {
      await page.locator('main .msg-error').waitFor({ timeout: 15000 });
    });

    // The endpoint answers, with an error of its own: that is what it says.
    srv = http
      .createServer((req, res) => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Incorrect API key provided: e2e', type: 'invalid_request_error', code: 'invalid_api_key' } }));
      })
      .listen(port, '127.0.0.1');
    await page.keyboard.press('Control+n');
    await send(page, 'hello again');
    const answered = page.locator('main .msg-error');
    await answered.waitFor({ timeout: 20000 });
    const said = await answered.innerText();
    assert.match(said, /The model endpoint answered with an error \(HTTP 401\)\./);
    assert.match(said, /Incorrect API key provided: e2e/);
    assert.match(said, /Check the API key in Settings\./);
    assert.equal(await page.locator('.thread-run-error').count(), 0);
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    srv?.close();
    await app.close();
  }
});

test('the delete-Undo toast stays 10 s (longer under the pointer) and covers nothing', inApp(async (app) => {
  const { page } = app;
  for (const title of ['Keep this one', 'Drop this one', 'And a third']) {
    const t = await app.api('NewThread', '');
    await app.api('RenameThread', t.id, title);
  }
  await page.reload();
  const nav = page.getByRole('navigation', { name: 'Conversation history' });
  const del = async (title) => {
    await nav.getByRole('button', { name: title, exact: true }).hover();
    await nav.getByRole('button', { name: `Options for ${title}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
  };
  const overlap = (a, b) => a && b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const boxes = () =>
    page.evaluate(() => {
      const r = (sel) => {
        const e = document.querySelector(sel);
        return e && getComputedStyle(e).display !== 'none' ? e.getBoundingClientRect().toJSON() : null;
      };
      return {
        toast: r('.toast'), composer: r('.composer'), head: r('.chat-head'), content: r('main .vlist, main .thread-empty'),
        settings: r('.sidebar-settings'), list: r('.sidebar-scroll'), sidebar: r('.sidebar'),
      };
    });
  await nav.getByRole('button', { name: 'Drop this one', exact: true }).waitFor({ timeout: 15000 });
  await del('Drop this one');
  const toast = page.locator('.toast', { hasText: 'Deleted “Drop this one”.' });
  await toast.waitFor();
  await page.waitForTimeout(400);
  // With the sidebar shown: at its foot, clear of the composer, the chat, the Settings button and the list.
  let b = await boxes();
  for (const k of ['composer', 'head', 'content', 'settings']) assert.ok(!overlap(b.toast, b[k]), `the toast covers the ${k}: ${JSON.stringify(b)}`);
  assert.ok(b.toast.top >= b.list.bottom - 0.5, `the toast covers the conversation list: ${JSON.stringify(b)}`);
  assert.ok(b.toast.left >= b.sidebar.left && b.toast.right <= b.sidebar.right, 'the toast is not in the sidebar');
  await page.screenshot({ path: join(artifacts, 'window-settings-toast-light-1280x800.png') });
  // A narrow window hides the sidebar: the toast moves under the header, and the chat makes room for it.
  await page.setViewportSize({ width: 800, height: 600 });
  await page.waitForTimeout(800);
  b = await boxes();
  if (!b.sidebar) {
    for (const k of ['composer', 'head', 'content']) assert.ok(!overlap(b.toast, b[k]), `the toast covers the ${k} at 800×600: ${JSON.stringify(b)}`);
  }
  await page.screenshot({ path: join(artifacts, 'window-settings-toast-light-800x600.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  // Still there after 6 s (it used to go after 5).
  await page.waitForTimeout(6500);
  assert.ok(await toast.isVisible(), 'the toast went before 10 s');
  // Under the pointer it waits.
  await toast.hover();
  await page.waitForTimeout(5000);
  assert.ok(await toast.isVisible(), 'the toast went while hovered');
  assert.ok((await app.api('ListThreads', '', 50)).threads.some((t) => t.title === 'Drop this one'), 'deleted while its Undo still shows');
  await page.mouse.move(900, 400);
  await toast.waitFor({ state: 'detached', timeout: 6000 });
  for (let i = 0; i < 30 && (await app.api('ListThreads', '', 50)).threads.some((t) => t.title === 'Drop this one'); i++) {
    await page.waitForTimeout(100);
  }
  assert.ok(!(await app.api('ListThreads', '', 50)).threads.some((t) => t.title === 'Drop this one'), 'not deleted after its toast went');
  // Undo brings a chat back and nothing is deleted.
  await del('And a third');
  await page.locator('.toast').getByRole('button', { name: 'Undo' }).click();
  await nav.getByRole('button', { name: 'And a third', exact: true }).waitFor();
  await page.waitForTimeout(500);
  assert.ok((await app.api('ListThreads', '', 50)).threads.some((t) => t.title === 'And a third'));
}));

test('without its token the page says to open the link Juncture printed (not a live-looking app stuck on "Reconnecting…")', inApp({ open: false }, async (app) => {
  const { page } = app;
  const base = app.url.replace(/#.*$/, '');
  const check = async () => {
    const h = page.getByRole('heading', { name: 'Open the link Juncture printed' });
    await h.waitFor({ timeout: 10000 });
    await page.waitForTimeout(1200);
    const text = await page.evaluate(() => document.body.innerText);
    assert.match(text, /carries the token/);
    assert.doesNotMatch(text, /Reconnecting|New chat|How can I help/);
    assert.equal(await page.getByRole('textbox').count(), 0);
  };
  await page.goto(base);
  await check();
  // A token the server refuses (Juncture restarted with a new one): the same page.
  await page.goto('about:blank'); // so the next address is a full load, not a same-page fragment change
  await page.goto(`${base}#token=stale`);
  // The refusal arrives with the server's answer, after the page loaded.
  await page.getByText(/did not accept this page’s access token/).waitFor({ timeout: 10000 });
  assert.equal(await page.getByRole('heading', { name: 'Open the link Juncture printed' }).count(), 1);
  // A reload of the refused page (its token is forgotten by then) still says the token was refused,
  // not that the page was opened without one.
  await page.reload();
  await page.getByRole('heading', { name: 'Open the link Juncture printed' }).waitFor({ timeout: 10000 });
  assert.match(await page.evaluate(() => document.body.innerText), /did not accept this page’s access token/);
  // The printed link works, pasted into this tab's address bar as the page says: only the #fragment
  // changes, so the browser does not load the page again (the page itself must take the new token).
  await page.goto(app.url);
  await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
  await page.evaluate(() => sessionStorage.clear()); // forget the token this tab keeps
  await shots(app, 'token', async () => {
    await page.goto(base);
    await page.getByRole('heading', { name: 'Open the link Juncture printed' }).waitFor({ timeout: 10000 });
  }, { viaSettings: false });
}));

test('the empty chat offers suggestions and shows the workspace; with no model it says what to set up', async () => {
  const app = await launch();
  try {
    const { page } = app;
    const composer = page.getByRole('textbox', { name: /message/i });
    await composer.waitFor({ timeout: 15000 });
    const empty = page.getByRole('region', { name: 'New chat' });
    await empty.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await empty.getByText(app.workspace, { exact: true }).waitFor();
    const suggestions = empty.getByRole('list', { name: 'Suggestions' }).getByRole('button');
    assert.ok((await suggestions.count()) >= 3);
    await suggestions.first().click();
    assert.equal(await composer.inputValue(), 'List the files in my workspace');
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'TEXTAREA');
    await page.waitForTimeout(300);
    assert.equal((await app.api('ListThreads', '', 50)).threads.length, 0, 'a suggestion was sent, not just put in the box');
    assert.doesNotMatch(await page.locator('.composer').innerText(), /Editing your last message/);
    await composer.fill('');
    await shots(app, 'empty', async () => {
      await page.getByRole('region', { name: 'New chat' }).getByText(app.workspace, { exact: true }).waitFor({ timeout: 15000 });
    });
  } finally {
    await app.close();
  }

  const bare = await launchBare();
  try {
    const { page } = bare;
    const setup = page.getByRole('region', { name: 'Set up a model' });
    await setup.getByRole('heading', { name: 'Connect a model to start' }).waitFor({ timeout: 15000 });
    assert.equal(await page.getByRole('heading', { name: 'How can I help?' }).count(), 0);
    assert.match(await setup.innerText(), /No model endpoint is configured/);
    // Said once: the composer's own note about it is not shown beside it.
    assert.equal(await page.locator('.composer-setup').isVisible(), false);
    await setup.getByRole('button', { name: 'Open Settings' }).click();
    await settingsDialog(page).waitFor();
    await page.keyboard.press('Escape');
    await shots(bare, 'empty-unconfigured', async () => {
      await page.getByRole('heading', { name: 'Connect a model to start' }).waitFor({ timeout: 15000 });
    });
    assert.deepEqual(bare.consoleErrors, []);
  } finally {
    await bare.close();
  }
});
