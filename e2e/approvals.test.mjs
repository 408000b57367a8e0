// User story: the model wants to write a file. An approval card shows the
// diff; each decision (Allow once, Always allow, Deny with a reason, Edit
// arguments) does what it says, and the keyboard cannot approve by accident.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBinaries, launch, send, latestThread, chatText } from './harness.mjs';

before(() => buildBinaries());

const writeCard = (page) => page.getByRole('article', { name: 'Approval for write_file' });
const answered = (page) => page.getByText(/The write_file tool returned/).last().waitFor({ timeout: 15000 });

async function withApp(fn) {
  const app = await launch({ settings: { enableWriteTools: true } });
  try {
    await fn(app);
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await app.close();
  }
}

test('the card shows a diff, takes focus, ignores Enter; Allow once writes the file', () =>
  withApp(async (app) => {
    const { page } = app;
    await send(page, 'write a note');
    const card = writeCard(page);
    await card.waitFor({ timeout: 15000 });
    // The diff preview: a figure naming the file, with the added lines.
    const diff = card.getByRole('figure', { name: /Create notes\.txt/ });
    await diff.waitFor();
    assert.match(await diff.innerText(), /\+Notes from Juncture's offline demo/);
    // Focus moves to the card itself, not to a button.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Approval for write_file');
    // Enter on the focused card approves nothing.
    await page.keyboard.press('Enter');
    await page.waitForTimeout(600);
    assert.ok(await card.isVisible(), 'Enter on the card made it go away');
    assert.ok(!existsSync(join(app.workspace, 'notes.txt')), 'Enter on the card wrote the file');

    await card.getByRole('button', { name: 'Allow once' }).click();
    await answered(page);
    await card.waitFor({ state: 'detached', timeout: 5000 });
    assert.match(readFileSync(join(app.workspace, 'notes.txt'), 'utf8'), /^Notes from Juncture's offline demo/);
    assert.match(await chatText(page), /The write_file tool returned/);
    assert.equal((await app.api('ListPermissionRules')).length, 0, 'Allow once must not leave a rule');
  }));

test('Always allow (this tool) skips the next card; Settings lists the rule and Revoke removes it', () =>
  withApp(async (app) => {
    const { page } = app;
    await send(page, 'write a note');
    const card = writeCard(page);
    await card.waitFor({ timeout: 15000 });
    await card.getByRole('button', { name: 'Always allow…' }).click();
    await card.getByRole('radio', { name: 'Every write_file call' }).check();
    await card.getByRole('button', { name: 'Always allow', exact: true }).click();
    await answered(page);
    assert.ok(existsSync(join(app.workspace, 'notes.txt')));

    // The next write runs without asking.
    const replies = () => page.evaluate(() => document.querySelector('main').innerText.split('The write_file tool returned').length - 1);
    const before = await replies();
    await send(page, 'write another note please');
    await page.waitForFunction(
      (n) => document.querySelector('main').innerText.split('The write_file tool returned').length - 1 > n,
      before, { timeout: 15000 });
    assert.equal(await writeCard(page).count(), 0, 'a card appeared despite the rule');
    const tid = await latestThread(app);
    const v = await app.api('GetThread', tid);
    assert.equal(v.messages.filter((m) => m.role === 'tool' && !m.isError).length, 2);

    // Settings › Rules shows the rule; Revoke removes it.
    await page.keyboard.press('Control+,');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.waitFor({ timeout: 5000 });
    await dialog.getByRole('tab', { name: 'Rules' }).click();
    const perms = dialog.getByRole('region', { name: 'Rules' });
    // The rule in Go's words (tools.Describe).
    await perms.getByText('Allow every write_file call').waitFor();
    assert.match(await perms.innerText(), /Allow every write_file call/);
    await perms.getByRole('button', { name: 'Revoke' }).click();
    // Revoke offers an Undo first (10 s); closing Settings carries it out.
    await perms.getByRole('button', { name: 'Undo' }).waitFor({ timeout: 5000 });
    await dialog.getByRole('button', { name: 'Close settings' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    assert.deepEqual(await app.api('ListPermissionRules'), []);
    await page.keyboard.press('Control+,');
    await dialog.getByRole('tab', { name: 'Rules' }).click();
    await dialog.getByRole('region', { name: 'Rules' }).getByText('No rules yet.').waitFor({ timeout: 5000 });
    await dialog.getByRole('button', { name: 'Close settings' }).click();

    // Revoked: the next write asks again.
    await send(page, 'write a third note');
    await writeCard(page).waitFor({ timeout: 15000 });
  }));

test('Deny with a reason: the model receives the reason verbatim', () =>
  withApp(async (app) => {
    const { page } = app;
    const reason = 'Use the staging folder instead, please';
    await send(page, 'write a note');
    const card = writeCard(page);
    await card.waitFor({ timeout: 15000 });
    await card.getByRole('button', { name: 'Deny…' }).click();
    const input = card.getByRole('textbox', { name: /Reason/ });
    await input.fill(reason);
    // Enter in the reason field denies with the reason (issue 14 item 5).
    await input.press('Enter');
    await card.waitFor({ state: 'detached', timeout: 10000 });
    assert.ok(!existsSync(join(app.workspace, 'notes.txt')), 'a denied write happened');

    const tid = await latestThread(app);
    const v = await app.waitThread(tid, (t) => !t.running && t.messages.some((m) => m.role === 'tool'));
    const tool = v.messages.find((m) => m.role === 'tool');
    assert.ok(tool.content.includes(reason), `the tool result lacks the reason: ${tool.content}`);
    // The demo model quotes the result's first line, so the chat shows what it read.
    await page.getByText(/The write_file tool returned/).waitFor({ timeout: 15000 });
    const text = await chatText(page);
    assert.ok(text.includes(reason), `the reply does not quote the reason: ${text}`);
  }));

test('Edit arguments: the edited path is the one written', () =>
  withApp(async (app) => {
    const { page } = app;
    await send(page, 'write a note');
    const card = writeCard(page);
    await card.waitFor({ timeout: 15000 });
    await card.getByRole('button', { name: 'Edit arguments' }).click();
    const editor = card.getByRole('textbox', { name: 'Arguments (JSON)' });
    const args = JSON.parse(await editor.inputValue());
    assert.equal(args.path, 'notes.txt');
    // Invalid JSON is refused inline.
    await editor.fill('{"path": ');
    await card.getByRole('alert').getByText(/Not valid JSON/).waitFor();
    assert.ok(await card.getByRole('button', { name: 'Allow with these arguments' }).isDisabled());
    await editor.fill(JSON.stringify({ ...args, path: 'edited/renamed.txt' }, null, 2));
    await card.getByRole('button', { name: 'Allow with these arguments' }).click();
    await answered(page);
    assert.ok(existsSync(join(app.workspace, 'edited/renamed.txt')), 'the edited path was not written');
    assert.ok(!existsSync(join(app.workspace, 'notes.txt')), 'the original path was written');
    assert.match(readFileSync(join(app.workspace, 'edited/renamed.txt'), 'utf8'), /offline demo/);
  }));
