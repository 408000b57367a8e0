// User stories: MCP servers as tool sources, against the real
// @modelcontextprotocol/server-everything. Add a server in Settings and call
// its read-only tool; approve a tool and answer its server's form (or
// decline it); stop a long call that reports progress; see an image result.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildBinaries, launch, send, latestThread } from './harness.mjs';
import { inApp } from './story.mjs';
import { everything, newChat, requireEverything, serverReady } from './mcpstory.mjs';

const artifacts = join(import.meta.dirname, 'artifacts');

before(() => {
  requireEverything();
  mkdirSync(artifacts, { recursive: true });
  buildBinaries();
});

async function shot(page, name) {
  await page.mouse.move(1270, 790);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, `mcp-${name}.png`), animations: 'disabled', caret: 'hide' });
}

// The tool block of the latest call, and the demo model's latest answer.
const lastTool = (page) => page.locator('.tool-block').last();
const lastAnswer = (page) => page.getByRole('article', { name: 'Juncture said' }).last();
// The demo model's whole answer (it streams): "The <tool> tool returned: > <first line> … Anything else …?"
const answered = (page, tool) => page.getByRole('article', { name: 'Juncture said' })
  .filter({ hasText: `The ${tool} tool returned` }).filter({ hasText: 'Anything else you want me to do with it?' })
  .last().waitFor({ timeout: 20000 });

test('add a server in Settings; its read-only tool runs without asking, shown by its own title', inApp(async (app) => {
  const { page } = app;
  await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Tool servers (MCP)' }).click();
  await dialog.getByText('No tool servers yet.').waitFor({ timeout: 5000 });
  await dialog.getByRole('button', { name: 'Add server…' }).click();
  const form = dialog.getByRole('form', { name: 'Add a tool server' });
  await form.getByRole('textbox', { name: 'Name' }).fill('everything');
  assert.ok(await form.getByRole('radio', { name: 'Program (stdio)' }).isChecked());
  await form.getByRole('textbox', { name: 'Command' }).fill(everything.command);
  await form.getByRole('textbox', { name: 'Arguments' }).fill(everything.args.join('\n'));
  await form.getByRole('button', { name: 'Add server' }).click();
  await form.waitFor({ state: 'detached', timeout: 5000 });

  const row = dialog.getByRole('listitem', { name: 'everything', exact: true });
  await row.getByText('Ready', { exact: true }).waitFor({ timeout: 20000 });
  const tools = row.locator('details.mcp-tools');
  const summary = tools.locator('summary');
  assert.match(await summary.innerText(), /^\d+ tools$/);
  if (!(await tools.evaluate((d) => d.open))) await summary.click();
  const echo = tools.getByRole('listitem').filter({ hasText: 'Echo Tool' });
  await echo.waitFor();
  assert.match(await echo.innerText(), /Echo Tool\s+echo\s+read-only/);
  const elicit = tools.getByRole('listitem').filter({ hasText: 'Trigger Elicitation Request Tool' });
  assert.doesNotMatch(await elicit.innerText(), /read-only/, 'a tool that is not read-only is marked read-only');
  await echo.scrollIntoViewIfNeeded();
  await shot(page, 'settings');
  await dialog.getByRole('button', { name: 'Close settings' }).click();

  // The read-only echo runs without an approval card: the answer comes back by itself.
  await send(page, '/tool everything__echo {"message":"hello from mcp"}');
  await answered(page, 'everything__echo');
  assert.match(await lastAnswer(page).innerText(), /Echo: hello from mcp/);
  assert.equal(await page.getByRole('article', { name: /^Approval for/ }).count(), 0);
  const v = await app.waitThread(await latestThread(app), (x) => !x.running);
  assert.equal(v.interrupts.length, 0);
  // The tool block names the tool by the server's title for it, not by its model name.
  const name = lastTool(page).locator('.tool-name');
  assert.equal((await name.innerText()).trim(), 'Echo Tool');
  assert.equal(await name.getAttribute('title'), 'everything__echo');
  assert.ok((await lastTool(page).locator('.tool-server').innerText()).trim().length > 0, 'no server title');
  assert.match(await lastTool(page).innerText(), /Done/);
}));

describe('a preconfigured server', () => {
  let app;
  before(async () => {
    app = await launch({ mcp: { mcpServers: { everything } } });
    await serverReady(app, 'everything');
    await app.page.reload();
  });
  after(() => app?.close());

  async function allowOnce(page) {
    const card = page.getByRole('article', { name: 'Approval for Trigger Elicitation Request Tool' });
    await card.waitFor({ timeout: 15000 });
    await card.getByRole('button', { name: 'Allow once' }).click();
    await card.waitFor({ state: 'detached', timeout: 10000 });
  }

  // The server's form: a card headed "<server> asks" with its message.
  const formCard = (page) => page.getByRole('article', { name: / asks$/ });

  test('approve a tool, then answer its server\'s form; a second time decline it', async () => {
    const { page } = app;
    await newChat(page);
    await send(page, '/tool everything__trigger-elicitation-request {}');
    await allowOnce(page);
    const card = formCard(page);
    await card.waitFor({ timeout: 15000 });
    await card.getByText('Please provide inputs for the following fields:').waitFor();
    // The server titles its required "name" field "String" ("Your full, legal name").
    const name = card.getByRole('textbox', { name: 'String', exact: true });
    assert.equal(await name.getAttribute('aria-required'), 'true');
    await name.fill('Ada Lovelace');
    await shot(page, 'elicitation');
    await card.getByRole('button', { name: 'Submit', exact: true }).click();
    await answered(page, 'everything__trigger-elicitation-request');
    assert.match(await lastAnswer(page).innerText(), /User provided the requested information/);
    // The server echoes what it got: the tool's result says "Name: Ada Lovelace".
    const tool = lastTool(page);
    await tool.locator('summary').first().click();
    await tool.locator('.tool-result > summary').click();
    assert.match(await tool.locator('.tool-result pre').innerText(), /- Name: Ada Lovelace/);

    // A second request, declined: the server's result says so.
    await newChat(page);
    await send(page, '/tool everything__trigger-elicitation-request {}');
    await allowOnce(page);
    await formCard(page).waitFor({ timeout: 15000 });
    await formCard(page).getByRole('button', { name: 'Decline', exact: true }).click();
    await answered(page, 'everything__trigger-elicitation-request');
    assert.match(await lastAnswer(page).innerText(), /User declined to provide the requested information/);
    const v = await app.waitThread(await latestThread(app), (x) => !x.running && x.interrupts.length === 0);
    assert.match(v.messages.find((m) => m.role === 'tool').content, /declined/);
    assert.deepEqual(app.consoleErrors, []);
  });

  test('stop a long call that reports progress: it ends at once, interrupted mid-run', async () => {
    const { page } = app;
    await newChat(page);
    await send(page, '/tool everything__trigger-long-running-operation {"duration":30,"steps":30}');
    const bar = lastTool(page).getByRole('progressbar', { name: 'Progress of Trigger Long Running Operation Tool' });
    await bar.waitFor({ timeout: 15000 });
    // The server reports step i of 30 (it sends no message text): the bar fills and says how far.
    await page.waitForFunction(() => {
      const p = [...document.querySelectorAll('.tool-block progress')].at(-1);
      return p && Number(p.getAttribute('value')) >= 2;
    }, null, { timeout: 10000 });
    assert.equal(await bar.getAttribute('max'), '30');
    assert.match(await lastTool(page).locator('.tool-progress-text').innerText(), /^\d+%$/);
    assert.match(await lastTool(page).innerText(), /Running/);
    await shot(page, 'progress');

    const stopped = Date.now();
    await page.getByRole('button', { name: /^stop/i }).click();
    await page.getByRole('button', { name: /^send/i }).waitFor({ timeout: 3000 });
    const chip = lastTool(page).getByText('Interrupted mid-run', { exact: true });
    await chip.waitFor({ timeout: 3000 });
    assert.ok(Date.now() - stopped < 3000, `stopping took ${Date.now() - stopped} ms`);
    assert.equal(await chip.getAttribute('title'), 'Stopped while running: side effects unknown');
    assert.equal(await bar.count(), 0, 'the progress bar stayed');
    // Its result, read by opening the block, says the same.
    await lastTool(page).locator('summary').first().click();
    const result = lastTool(page).locator('.tool-result');
    if (!(await result.evaluate((d) => d.open))) await result.locator('summary').click();
    assert.match(await lastTool(page).locator('.tool-result pre').innerText(), /^Interrupted mid-run; side effects unknown/);
    // Nothing keeps running: a few seconds on, the run is still over and nothing more arrived.
    const tid = await latestThread(app);
    const v1 = await app.waitThread(tid, (x) => !x.running);
    await page.waitForTimeout(3000);
    const v2 = await app.api('GetThread', tid);
    assert.equal(v2.running, false);
    assert.equal(v2.messages.length, v1.messages.length, 'messages arrived after Stop');
    assert.equal(await lastTool(page).getByRole('progressbar').count(), 0);
    assert.match(await lastTool(page).innerText(), /Interrupted mid-run/);
    assert.ok(!/completed/.test(JSON.stringify(v2.messages)), 'the operation completed after Stop');
    assert.equal((await serverReady(app, 'everything')).status, 'ready');
    assert.deepEqual(app.consoleErrors, []);
  });

  test('an image result shows as a thumbnail that opens full size; Esc closes it', async () => {
    const { page } = app;
    await newChat(page);
    await send(page, '/tool everything__get-tiny-image {}');
    await answered(page, 'everything__get-tiny-image');
    const thumb = lastTool(page).getByRole('button', { name: /^Show full size: / });
    await thumb.waitFor({ timeout: 5000 });
    const img = thumb.locator('img');
    assert.ok(await img.evaluate((i) => i.complete && i.naturalWidth > 0), 'the thumbnail did not load');
    await shot(page, 'image');
    await thumb.click();
    const viewer = page.getByRole('dialog', { name: (await img.getAttribute('alt')) ?? '' });
    await viewer.waitFor({ timeout: 3000 });
    const big = viewer.locator('img');
    const [tw, bw] = [await img.evaluate((i) => i.getBoundingClientRect().width), await big.evaluate((i) => i.getBoundingClientRect().width)];
    assert.ok(bw > tw, `the full-size image (${bw}px) is not larger than the thumbnail (${tw}px)`);
    await shot(page, 'image-full');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached', timeout: 3000 });
    assert.ok(await thumb.isVisible());
    assert.deepEqual(app.consoleErrors, []);
  });
});
