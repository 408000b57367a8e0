// User stories: what an MCP server offers beyond tools, against the real
// @modelcontextprotocol/server-everything. Type "/" and pick a prompt, fill
// its arguments with the server's completions, edit the inserted text and
// send it; attach a server's resource ("Add from a server", a template
// with a completion) and see the model receive it; choose a server's log
// level in Settings.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildBinaries, latestThread } from './harness.mjs';
import { inApp } from './story.mjs';
import { everything, requireEverything, serverReady } from './mcpstory.mjs';

const mcp = { mcpServers: { everything } };
const artifacts = join(import.meta.dirname, 'artifacts');
const docs = resolve(import.meta.dirname, '../docs/screenshots');

before(() => {
  requireEverything();
  mkdirSync(artifacts, { recursive: true });
  buildBinaries();
});

async function shot(page, path) {
  await page.waitForTimeout(250);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
}

/** Sets the theme, reloads, and hands back the composer once it is up. */
async function setTheme(app, theme) {
  const cur = await app.api('GetSettings');
  await app.api('SaveSettings', { ...cur.settings, theme });
  await app.page.reload();
  const box = app.page.getByRole('textbox', { name: /message/i });
  await box.waitFor({ timeout: 15000 });
  return box;
}

test('"/" lists the prompts; a form with completions; the result is inserted, edited and sent', inApp({ mcp, settings: { theme: 'light' } }, async (app) => {
  const { page } = app;
  await serverReady(app, 'everything');
  for (const theme of ['light', 'dark']) {
    const box = await setTheme(app, theme);
    await box.fill('/');
    const menu = page.getByRole('region', { name: 'Prompts from MCP servers' });
    const team = menu.getByRole('option').filter({ hasText: 'Team Management' });
    await team.waitFor({ timeout: 10000 });
    assert.match(await menu.innerText(), /\/args-prompt · Arguments Prompt/);
    assert.match(await team.innerText(), /Everything Reference Server/);
    assert.match(await team.innerText(), /First argument choice narrows values for second argument\./);
    await box.pressSequentially('zzz');
    assert.equal(await menu.getByRole('option').count(), 0, 'a query that matches nothing still lists');
    await box.fill('/compl');
    await page.waitForTimeout(150);
    assert.equal(await menu.getByRole('option').count(), 1);
    await shot(page, join(docs, `mcp-prompt-menu-${theme}.png`));
    await box.press('Enter');

    const form = page.getByRole('form', { name: 'Prompt Team Management' });
    const dept = form.getByRole('textbox', { name: /department/ });
    await dept.waitFor();
    assert.equal(await form.getByRole('button', { name: 'Insert' }).isDisabled(), true);
    await dept.pressSequentially('Eng');
    await form.getByRole('button', { name: 'Engineering' }).click();
    assert.equal(await dept.inputValue(), 'Engineering');
    const name = form.getByRole('textbox', { name: /^name/ });
    await name.click();
    // The server narrows names by the department chosen (sent as context).
    await form.getByRole('listbox', { name: 'Suggestions for name' }).waitFor();
    assert.deepEqual(await form.getByRole('listbox', { name: 'Suggestions for name' }).getByRole('button').allInnerTexts(), ['Alice', 'Bob', 'Charlie']);
    await shot(page, join(docs, `mcp-prompt-form-${theme}.png`));
    await form.getByRole('button', { name: 'Bob' }).click();
    await form.getByRole('button', { name: 'Insert' }).click();
    await form.waitFor({ state: 'detached' });

    // Inserted as the draft, editable before it is sent.
    assert.equal(await box.inputValue(), 'Please promote Bob to the head of the Engineering team.');
    if (theme === 'dark') continue;
    await box.press('End');
    await box.pressSequentially(' Then echo history.');
    await box.press('Enter');
    const answer = page.locator('.msg-assistant').last();
    await answer.getByText(/Please promote Bob to the head of the Engineering team\. Then echo history\./).waitFor({ timeout: 15000 });
    const tid = await latestThread(app);
    const view = await app.waitThread(tid, (v) => !v.running);
    assert.equal(view.messages.find((m) => m.role === 'user').content, 'Please promote Bob to the head of the Engineering team. Then echo history.');
    await page.getByRole('button', { name: /new chat/i }).first().click();
  }
}));

test('"Add from a server": a resource template with a completion becomes a chip, and the model receives it', inApp({ mcp, settings: { theme: 'light' } }, async (app) => {
  const { page } = app;
  await serverReady(app, 'everything');
  for (const theme of ['light', 'dark']) {
    const box = await setTheme(app, theme);
    const add = page.getByRole('button', { name: 'Add from a server' });
    await add.waitFor({ timeout: 15000 });
    await add.click();
    const picker = page.getByRole('dialog', { name: 'Add from a server' });
    await picker.getByRole('button', { name: /features\.md/ }).waitFor({ timeout: 10000 });
    await picker.getByRole('searchbox', { name: 'Search resources' }).fill('dynamic');
    assert.equal(await picker.getByRole('button', { name: /features\.md/ }).count(), 0, 'the search did not filter');
    await shot(page, join(docs, `mcp-resource-picker-${theme}.png`));
    await picker.getByRole('button', { name: /Dynamic Text Resource/ }).click();
    const tmpl = picker.getByRole('form', { name: 'Resource template Dynamic Text Resource' });
    const id = tmpl.getByRole('textbox', { name: /resourceId/ });
    await id.pressSequentially('42');
    await tmpl.getByRole('button', { name: 'Attach' }).click();
    await picker.waitFor({ state: 'detached', timeout: 10000 });
    await page.getByRole('button', { name: 'Remove 42.txt' }).waitFor({ timeout: 5000 });

    // A listed resource too.
    await add.click();
    await picker.getByRole('button', { name: /features\.md/ }).click();
    await page.getByRole('button', { name: 'Remove features.md' }).waitFor({ timeout: 5000 });
    await box.fill('What do these say? echo history');
    await shot(page, join(docs, `mcp-resource-chips-${theme}.png`));
    if (theme === 'dark') {
      await page.getByRole('button', { name: 'Remove 42.txt' }).click();
      await page.getByRole('button', { name: 'Remove features.md' }).click();
      continue;
    }
    await box.press('Enter');
    const answer = page.locator('.msg-assistant').last();
    await answer.getByText(/Resource 42: This is a plaintext resource/).waitFor({ timeout: 15000 });
    assert.match(await answer.innerText(), /42\.txt/);
    const tid = await latestThread(app);
    const view = await app.waitThread(tid, (v) => !v.running);
    const user = view.messages.find((m) => m.role === 'user');
    assert.deepEqual(user.attachments.map((a) => [a.name, a.mimeType]), [['42.txt', 'text/plain'], ['features.md', 'text/markdown']]);
    await page.getByRole('button', { name: /new chat/i }).first().click();
  }
}));

test('Settings: a server\'s log level is chosen beside its log, and kept', inApp({ mcp, settings: { theme: 'light' } }, async (app) => {
  const { page } = app;
  await serverReady(app, 'everything');
  await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Tool servers (MCP)' }).click();
  const row = dialog.getByRole('listitem', { name: 'everything', exact: true });
  await row.getByText('Ready', { exact: true }).waitFor({ timeout: 20000 });
  await row.getByRole('button', { name: 'Show log of everything' }).click();
  const level = row.getByRole('combobox', { name: 'Log level' });
  await level.selectOption('debug');
  await page.waitForTimeout(300);
  assert.deepEqual(await app.api('MCPLogLevels'), { everything: 'debug' });
  await row.getByRole('button', { name: 'Refresh the log of everything' }).click();
  await row.getByText(/log level set to debug/).waitFor({ timeout: 5000 });
  await shot(page, join(docs, 'mcp-log-level-light.png'));
}));
