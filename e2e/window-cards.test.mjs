// User stories: the decision cards as a person uses them with the keyboard
// and the eyes. Esc closes the innermost thing that is open and never stops
// the run from inside a card (nor throws away what was typed); refused
// edited arguments stay in the editor with the problem in plain words; focus
// always moves to the next thing to do; a batch is one readable column with
// an honest count; open_url and copy_to_clipboard ask in words; a question
// card leads with the question. Screenshots (light and dark, 800×600 and
// 1920×1080) go to e2e/artifacts/window-cards-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildBinaries, launch, send } from './harness.mjs';

const artifacts = join(import.meta.dirname, 'artifacts');

let app;
before(async () => {
  mkdirSync(artifacts, { recursive: true });
  buildBinaries();
  app = await launch({ settings: { enableWriteTools: true } });
});
after(() => app?.close());

const card = (page, name) => page.getByRole('article', { name });
const composer = (page) => page.getByRole('textbox', { name: 'Message' });

// What has focus: its tag, its accessible-ish name and its value.
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { tag: 'body' };
    const label = el.getAttribute('aria-label') ?? (el.labels?.[0]?.innerText ?? '') ?? '';
    return {
      tag: el.tagName.toLowerCase(),
      label: label || el.innerText?.trim() || '',
      value: 'value' in el ? el.value : undefined,
      type: el.getAttribute('type') ?? undefined,
      checked: 'checked' in el ? el.checked : undefined,
    };
  });
}

async function newChat(page, text) {
  await page.keyboard.press('Control+n');
  await composer(page).waitFor({ timeout: 10000 });
  await send(page, text);
}

// The conversation whose run waits for a decision now (earlier ones may
// still be finishing, so "the latest updated" is not reliable).
async function pendingThread() {
  const end = Date.now() + 10000;
  for (;;) {
    const { threads } = await app.api('ListThreads', '', 50);
    for (const t of threads ?? []) {
      const v = await app.api('GetThread', t.id);
      if (v.interrupts.length) return t.id;
    }
    if (Date.now() > end) throw new Error('no conversation waits for a decision');
    await new Promise((r) => setTimeout(r, 100));
  }
}

// The run still waits on this thread's decision (Esc did not stop it).
async function stillWaiting(threadId, n = 1) {
  await app.page.waitForTimeout(400);
  const v = await app.api('GetThread', threadId);
  assert.equal(v.interrupts.length, n, 'the run no longer waits: Esc stopped it');
  assert.ok(!v.messages.some((m) => m.role === 'tool'), 'a tool result appeared: the call was settled');
  return v;
}

test('Esc in the Deny form closes it and keeps the reason and the run; Enter denies with the reason', async () => {
  const { page } = app;
  const reason = 'Not now, use the staging folder';
  await newChat(page, 'write a note');
  const c = card(page, 'Approval for write_file');
  await c.waitFor({ timeout: 15000 });
  const tid = await pendingThread();

  await c.getByRole('button', { name: 'Deny…' }).click();
  const input = c.getByRole('textbox', { name: /Reason/ });
  // Focus is in the reason field, ready to type.
  assert.match((await focused(page)).label, /Reason/);
  await page.keyboard.type(reason);
  await page.keyboard.press('Escape');
  await input.waitFor({ state: 'detached', timeout: 3000 });
  await stillWaiting(tid);
  assert.ok(await c.isVisible(), 'the card went away');
  // Focus goes back to the button that opened the form.
  assert.equal((await focused(page)).label, 'Deny…');
  // Reopened, the reason is still there.
  await page.keyboard.press('Enter');
  assert.equal(await input.inputValue(), reason);
  assert.match((await focused(page)).label, /Reason/);
  // Enter denies, with the reason.
  await page.keyboard.press('Enter');
  await c.waitFor({ state: 'detached', timeout: 10000 });
  const v = await app.waitThread(tid, (t) => !t.running && t.messages.some((m) => m.role === 'tool'));
  assert.ok(v.messages.find((m) => m.role === 'tool').content.includes(reason), 'the model did not get the reason');
  // After the last decision, focus is in the composer.
  assert.equal((await focused(page)).label, 'Message');
  assert.deepEqual(app.consoleErrors, []);
});

test('Always allow… focuses its choice; Esc goes back to the button, the run still waits', async () => {
  const { page } = app;
  await newChat(page, 'run it');
  const c = card(page, 'Approval for run_command');
  await c.waitFor({ timeout: 15000 });
  const tid = await pendingThread();
  await c.getByRole('button', { name: 'Always allow…' }).click();
  const f = await focused(page);
  assert.ok(f.type === 'radio' && f.checked, `focus is on ${JSON.stringify(f)}, not the chosen rule`);
  await page.keyboard.press('Escape');
  await c.getByRole('radio').first().waitFor({ state: 'detached', timeout: 3000 });
  assert.equal((await focused(page)).label, 'Always allow…');
  await stillWaiting(tid);
  await c.getByRole('button', { name: 'Allow once' }).click();
  await c.waitFor({ state: 'detached', timeout: 10000 });
  assert.equal((await focused(page)).label, 'Message');
});

test('Esc in the Edit-arguments editor closes it, keeps the edit and the run', async () => {
  const { page } = app;
  await newChat(page, 'run it');
  const c = card(page, 'Approval for run_command');
  await c.waitFor({ timeout: 15000 });
  const tid = await pendingThread();
  await c.getByRole('button', { name: 'Edit arguments' }).click();
  const editor = c.getByRole('textbox', { name: 'Arguments (JSON)' });
  assert.equal((await focused(page)).label, 'Arguments (JSON)');
  const edit = JSON.stringify({ command: 'ls -l' }, null, 2);
  await editor.fill(edit);
  await editor.press('Escape');
  await editor.waitFor({ state: 'detached', timeout: 3000 });
  assert.equal((await focused(page)).label, 'Edit arguments');
  await stillWaiting(tid);
  await page.keyboard.press('Enter');
  assert.equal(await editor.inputValue(), edit, 'the edit was thrown away');
  await c.getByRole('button', { name: 'Allow with these arguments' }).click();
  await c.waitFor({ state: 'detached', timeout: 10000 });
  assert.equal((await focused(page)).label, 'Message');
  const v = await app.waitThread(tid, (t) => !t.running && t.messages.some((m) => m.role === 'tool'));
  assert.ok(!v.messages.find((m) => m.role === 'tool').isError, 'the edited command failed');
});

test('schema-invalid edited arguments keep the editor open with "command must be text"', async () => {
  const { page } = app;
  await newChat(page, 'run it');
  const c = card(page, 'Approval for run_command');
  await c.waitFor({ timeout: 15000 });
  const tid = await pendingThread();
  await c.getByRole('button', { name: 'Edit arguments' }).click();
  const editor = c.getByRole('textbox', { name: 'Arguments (JSON)' });
  const bad = '{\n  "command": 5\n}';
  await editor.fill(bad);
  await c.getByRole('button', { name: 'Allow with these arguments' }).click();
  const alert = c.getByRole('alert');
  await alert.getByText(/command must be text/).waitFor({ timeout: 10000 });
  const said = await alert.innerText();
  assert.doesNotMatch(said, /approval_|interrupt|got number|want string/i, `the error is not in plain words: ${said}`);
  // The editor is still open, with the edit, focused and marked invalid.
  assert.equal(await editor.inputValue(), bad);
  assert.equal(await editor.getAttribute('aria-invalid'), 'true');
  assert.equal((await focused(page)).label, 'Arguments (JSON)');
  assert.ok(await c.getByRole('button', { name: 'Allow with these arguments' }).isDisabled());
  await stillWaiting(tid);
  // Fixing it clears the error and runs it.
  await editor.fill('{\n  "command": "ls"\n}');
  assert.equal(await c.getByRole('alert').count(), 0);
  await c.getByRole('button', { name: 'Allow with these arguments' }).click();
  await c.waitFor({ state: 'detached', timeout: 10000 });
  const v = await app.waitThread(tid, (t) => !t.running && t.messages.some((m) => m.role === 'tool'));
  assert.ok(!v.messages.find((m) => m.role === 'tool').isError);
  assert.deepEqual(app.consoleErrors, []);
});

test('Esc in a question form keeps the answer and the run; Esc from the composer stops it', async () => {
  const { page } = app;
  await newChat(page, 'please fill in a form');
  const c = card(page, 'Question');
  await c.waitFor({ timeout: 15000 });
  const tid = await pendingThread();
  // The question is the heading; the form's title is the line under it.
  const h = c.getByRole('heading', { level: 3 });
  assert.equal(await h.innerText(), 'Tell me about yourself.');
  assert.match(await c.locator('header').innerText(), /About you/);
  // A form has no "Clear choice".
  assert.equal(await c.getByRole('button', { name: /Clear/ }).count(), 0);
  const name = c.getByRole('textbox', { name: /Name/ });
  await name.fill('Ada');
  await name.press('Escape');
  await page.waitForTimeout(300);
  await stillWaiting(tid);
  assert.equal(await name.inputValue(), 'Ada', 'the typed answer was lost');
  // Focus went back to the card.
  assert.equal((await focused(page)).label, 'Question');
  // Esc on the card itself does nothing either.
  await page.keyboard.press('Escape');
  await stillWaiting(tid);
  // From the composer, Esc stops the run.
  await composer(page).focus();
  await page.keyboard.press('Escape');
  await app.waitThread(tid, (t) => !t.running && t.interrupts.length === 0);
  await c.waitFor({ state: 'detached', timeout: 10000 });
});

test('a choice question leads with the question, in the card’s strongest text', async () => {
  const { page } = app;
  await newChat(page, 'ask me something');
  const c = card(page, 'Question');
  await c.waitFor({ timeout: 15000 });
  const h = c.getByRole('heading', { level: 3 });
  assert.equal(await h.innerText(), 'Which theme do you prefer?');
  const style = await h.evaluate((el) => {
    const s = getComputedStyle(el);
    const body = getComputedStyle(document.querySelector('main'));
    return { weight: Number(s.fontWeight), color: s.color, text: body.color, size: parseFloat(s.fontSize) };
  });
  assert.ok(style.weight >= 600, `the question is not bold: ${style.weight}`);
  assert.equal(style.color, style.text, 'the question is not in the main text colour');
  assert.equal(await c.getByText('Juncture has a question').count(), 0);
  // A choice question can clear its choice.
  const clear = c.getByRole('button', { name: 'Clear choice' });
  assert.ok(await clear.isDisabled());
  await c.getByRole('radio', { name: 'Dark' }).check();
  await clear.click();
  assert.equal(await c.getByRole('radio', { name: 'Dark' }).isChecked(), false);
  await c.getByRole('radio', { name: 'Light' }).check();
  await c.getByRole('button', { name: 'Submit answer' }).click();
  await page.getByText(/You answered:/).last().waitFor({ timeout: 15000 });
  assert.equal((await focused(page)).label, 'Message');
});

test('a batch of two: one column without an inner scroll box, an honest count, focus moves on', async () => {
  const { page } = app;
  await page.setViewportSize({ width: 800, height: 600 });
  try {
    await newChat(page, 'do a batch');
    const panel = page.getByRole('region', { name: 'Waiting for your decision' });
    const approval = panel.getByRole('article', { name: 'Approval for write_file' });
    const question = panel.getByRole('article', { name: 'Question' });
    await approval.waitFor({ timeout: 15000 });
    await question.waitFor({ timeout: 5000 });
    const pill = page.locator('.chat-status');
    await pill.getByText('Waiting for 2 decisions').waitFor({ timeout: 5000 });
    // No scroll box of its own: the panel is as tall as its cards.
    const box = await panel.evaluate((el) => ({
      overflow: getComputedStyle(el).overflowY,
      maxHeight: getComputedStyle(el).maxHeight,
      scroll: el.scrollHeight,
      client: el.clientHeight,
    }));
    assert.ok(!/auto|scroll/.test(box.overflow), `the panel scrolls on its own: ${JSON.stringify(box)}`);
    assert.equal(box.maxHeight, 'none');
    assert.ok(box.scroll <= box.client + 1, `the panel cuts its cards: ${JSON.stringify(box)}`);

    await approval.getByRole('button', { name: 'Allow once' }).click();
    await approval.getByRole('status').getByText(/Approved/).waitFor();
    await pill.getByText('Waiting for 1 decision', { exact: true }).waitFor({ timeout: 5000 });
    // Focus moved to the question, the next thing to do, and it is in view
    // in full (the page scrolls, nothing cuts it off).
    assert.equal((await focused(page)).label, 'Question');
    const seen = await question.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const chat = el.closest('main').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, chatTop: chat.top, chatBottom: chat.bottom };
    });
    assert.ok(seen.top >= seen.chatTop - 1, `the question's top is hidden: ${JSON.stringify(seen)}`);
    await question.getByRole('radio', { name: 'Dark' }).check();
    await question.getByRole('button', { name: 'Submit answer' }).click();
    await panel.waitFor({ state: 'detached', timeout: 15000 });
    assert.equal((await focused(page)).label, 'Message');
    // The cards close when the batch is accepted; the approved write runs
    // in the continuation right after.
    const written = join(app.workspace, 'batch.txt');
    for (let i = 0; i < 100 && !existsSync(written); i++) await page.waitForTimeout(100);
    assert.ok(existsSync(written), 'the approved write_file did not run');
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('open_url asks "Open example.com?" with the full URL; copy_to_clipboard shows the text', async () => {
  const { page } = app;
  await newChat(page, 'open a website');
  const open = card(page, 'Approval for open_url');
  await open.waitFor({ timeout: 15000 });
  assert.equal(await open.getByRole('heading', { level: 3 }).innerText(), 'Open example.com?');
  assert.match(await open.innerText(), /https:\/\/example\.com/);
  assert.doesNotMatch(await open.innerText(), /"url"|\{/, 'the card shows raw JSON');
  await page.screenshot({ path: join(artifacts, 'window-cards-open-url.png'), animations: 'disabled', caret: 'hide' });
  await open.getByRole('button', { name: 'Deny…' }).click();
  await page.keyboard.press('Enter');
  await open.waitFor({ state: 'detached', timeout: 10000 });

  await newChat(page, 'copy this');
  const copy = card(page, 'Approval for copy_to_clipboard');
  await copy.waitFor({ timeout: 15000 });
  assert.equal(await copy.getByRole('heading', { level: 3 }).innerText(), 'Copy to clipboard?');
  assert.match(await copy.innerText(), /Hello from Juncture's offline demo!/);
  assert.doesNotMatch(await copy.innerText(), /"text"|\{/, 'the card shows raw JSON');
  await page.screenshot({ path: join(artifacts, 'window-cards-copy.png'), animations: 'disabled', caret: 'hide' });
  await copy.getByRole('button', { name: 'Deny…' }).click();
  await page.keyboard.press('Enter');
  await copy.waitFor({ state: 'detached', timeout: 10000 });
  assert.deepEqual(app.consoleErrors, []);
});

test('screenshots: deny form, refused edit, batch (light and dark, 800×600 and 1920×1080)', async () => {
  const { page } = app;
  const shot = async (name) => {
    await page.mouse.move(1, 1);
    await page.waitForTimeout(250);
    await page.screenshot({ path: join(artifacts, `window-cards-${name}.png`), animations: 'disabled', caret: 'hide' });
  };
  try {
    for (const theme of ['light', 'dark']) {
      const cur = await app.api('GetSettings');
      await app.api('SaveSettings', { ...cur.settings, theme });
      for (const [w, h] of [[800, 600], [1920, 1080]]) {
        await page.setViewportSize({ width: w, height: h });
        await page.reload();
        await composer(page).waitFor({ timeout: 10000 });
        const tag = `${theme}-${w}x${h}`;

        await newChat(page, 'write a note');
        const write = card(page, 'Approval for write_file');
        await write.waitFor({ timeout: 15000 });
        await write.getByRole('button', { name: 'Deny…' }).click();
        await page.keyboard.type('Use the staging folder instead');
        await write.scrollIntoViewIfNeeded();
        await shot(`deny-${tag}`);

        await newChat(page, 'run it');
        const run = card(page, 'Approval for run_command');
        await run.waitFor({ timeout: 15000 });
        await run.getByRole('button', { name: 'Edit arguments' }).click();
        await run.getByRole('textbox', { name: 'Arguments (JSON)' }).fill('{\n  "command": 5\n}');
        await run.getByRole('button', { name: 'Allow with these arguments' }).click();
        await run.getByRole('alert').getByText(/must be text/).waitFor({ timeout: 10000 });
        await shot(`edit-error-${tag}`);

        rmSync(join(app.workspace, 'batch.txt'), { force: true }); // a real diff, not "No changes"
        await newChat(page, 'do a batch');
        const approval = card(page, 'Approval for write_file');
        await approval.waitFor({ timeout: 15000 });
        await card(page, 'Question').waitFor({ timeout: 5000 });
        await approval.getByRole('button', { name: 'Allow once' }).click();
        await page.locator('.chat-status').getByText('Waiting for 1 decision', { exact: true }).waitFor({ timeout: 5000 });
        await shot(`batch-${tag}`);
      }
    }
  } finally {
    const cur = await app.api('GetSettings');
    await app.api('SaveSettings', { ...cur.settings, theme: 'system' });
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  assert.deepEqual(app.consoleErrors, []);
});
