// User story (issue 12, model and instructions per thread): two endpoints,
// two chats. Chat A is switched to the second endpoint's model-x from the
// model picker in its header and given instructions; chat B keeps the
// default endpoint. Each fake server's request log says which model got
// which message, and the instructions reach the model (the demo's "echo
// instructions" quotes its system message). A chat started from a preset
// runs with the preset's instructions. Screenshot of the header with the
// picker open: e2e/artifacts/threads-models-picker.png.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildBinaries, launch, send } from './harness.mjs';
import { inApp } from './story.mjs';
import { freePort, start, stop, waitFor } from './procs.mjs';

const root = resolve(import.meta.dirname, '..');
const fakeBin = join(root, 'build/bin/fakellm');
const artifacts = join(import.meta.dirname, 'artifacts');
mkdirSync(artifacts, { recursive: true });

before(() => {
  if (!process.env.SKIP_BUILD) buildBinaries(); // SKIP_BUILD=1: use the binaries in build/bin as they are
});

// requests are the chat completions a fake server logged: model and last message.
function requests(proc) {
  return [...proc.log.matchAll(/POST \/v1\/chat\/completions model="([^"]*)" stream=\w+ messages=\d+ tools=\d+ last=(.*) -> /g)].map((m) => ({
    model: m[1],
    last: m[2],
  }));
}

// answered waits until the open chat shows text (an answer streamed in).
async function waitText(page, text, timeout = 15000) {
  await page.waitForFunction((t) => (document.querySelector('main')?.innerText ?? '').includes(t), text, { timeout });
}

async function idle(page) {
  await page.getByRole('button', { name: /^send/i }).waitFor({ timeout: 15000 });
}

test('a chat switched to another endpoint and model keeps it while another chat keeps its own; instructions reach the model', async () => {
  const app = await launch();
  const port = await freePort();
  const second = start(fakeBin, ['-addr', `127.0.0.1:${port}`], {}, 'fakellm-2');
  try {
    await waitFor(`http://127.0.0.1:${port}/v1/models`);
    const { page } = app;
    const ep = await app.api('SaveEndpoint', {
      id: '', name: 'Second', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-second-e2e-7777',
      models: ['model-x', 'model-y'], prices: { 'model-x': { inputPerMTok: 1, outputPerMTok: 2 } }, source: 'saved', isDefault: false, defaultModel: '',
    });
    assert.equal(ep.apiKey, '••••7777', 'the key comes back masked');

    // Chat A: a first message on the default (the environment's fake model).
    await send(page, 'hello from A');
    await waitText(page, 'offline demo');
    await idle(page);
    const modelButton = page.getByRole('button', { name: /^Model:/ });
    await page.waitForFunction(() => document.querySelector('.thead-model')?.getAttribute('aria-label')?.includes('fake-model'), null, { timeout: 10000 });

    // The picker: type to filter, ↓ and Enter to choose model-x Second.
    await modelButton.click();
    const search = page.getByRole('combobox', { name: 'Search models' });
    await search.waitFor();
    await page.getByRole('option', { name: /model-y/ }).waitFor({ timeout: 10000 });
    await search.fill('second');
    await page.waitForTimeout(150);
    const header = page.locator('.chat-head');
    const box = await header.boundingBox();
    await page.screenshot({ path: join(artifacts, 'threads-models-picker.png'), clip: { x: Math.max(0, box.x + box.width - 700), y: 0, width: 700, height: 470 } });
    await page.screenshot({ path: join(artifacts, 'threads-models-picker-full.png') });
    const active = await search.getAttribute('aria-activedescendant');
    assert.match(await page.locator(`[id="${active}"]`).innerText(), /model-x/, 'the first match is active');
    await search.press('Enter');
    await page.waitForFunction(() => document.querySelector('.thead-model')?.getAttribute('aria-label') === 'Model: model-x Second. Change the model', null, { timeout: 10000 });
    assert.equal(await page.getByRole('combobox').count(), 0, 'the picker closed');

    // Instructions, typed in the editor.
    await page.getByRole('button', { name: 'Instructions' }).click();
    const editor = page.getByRole('textbox', { name: 'Instructions for this chat' });
    await editor.fill('Answer like a pirate, matey.');
    assert.match(await page.getByRole('dialog').innerText(), /Applies from the next answer/);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Instructions (set)' }).waitFor({ timeout: 10000 });

    await send(page, 'please echo instructions');
    await waitText(page, 'Model model-x answering.');
    await waitText(page, 'Answer like a pirate, matey.');
    await idle(page);
    let threadA = null;
    for (const t of (await app.api('ListThreads', '', 10)).threads) {
      const v = await app.api('GetThread', t.id);
      if (v.thread.options?.endpointId === ep.id) threadA = v.thread;
    }
    assert.ok(threadA, 'chat A names the second endpoint');
    assert.equal(threadA.options.model, 'model-x');

    // Chat B: a new chat keeps the default endpoint and model.
    await page.getByRole('button', { name: 'New chat', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('.thead-model')?.getAttribute('aria-label')?.includes('fake-model'), null, { timeout: 10000 });
    await send(page, 'echo instructions from B');
    await waitText(page, 'Model fake-model answering.');
    await idle(page);
    const textB = await page.evaluate(() => document.querySelector('main')?.innerText ?? '');
    assert.ok(!textB.includes('pirate'), 'chat B has no instructions of A');
    assert.ok(textB.includes('You are Juncture'), 'Juncture’s own text comes first');

    // A still runs on model-x with its instructions.
    const viewA = await app.api('GetThread', threadA.id);
    assert.equal(viewA.thread.options.systemPrompt, 'Answer like a pirate, matey.');
    await app.api('SendInput', threadA.id, 'echo instructions once more');
    await app.waitThread(threadA.id, (v) => !v.running && v.messages.at(-1)?.content.includes('answering.'));
    assert.match((await app.api('GetThread', threadA.id)).messages.at(-1).content, /Model `model-x` answering\.[\s\S]*pirate/);

    // The servers' logs: A's messages went to the second server as model-x, B's to the first as fake-model.
    const first = requests(app.fake);
    const sec = requests(second);
    // (A title request may quote the first message too: it goes to the chat's own model as well.)
    const at = (list, text) => list.filter((r) => r.last.includes(text));
    const models = (list, text) => [...new Set(at(list, text).map((r) => r.model))];
    assert.deepEqual(models(sec, 'please echo instructions'), ['model-x']);
    assert.deepEqual(models(sec, 'echo instructions once more'), ['model-x']);
    assert.deepEqual(models(first, 'echo instructions from B'), ['fake-model']);
    assert.deepEqual(models(first, 'hello from A'), ['fake-model'], 'A’s first message ran on the default');
    assert.equal(at(first, 'echo instructions').filter((r) => !r.last.includes('from B')).length, 0, 'nothing of A after the switch reached the first server');
    assert.equal(at(sec, 'from B').length, 0, 'nothing of B reached the second server');
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await stop(second);
    await app.close();
  }
});

test('a chat started from a preset runs with its instructions; the settings list endpoints and presets', inApp(async (app) => {
  const { page } = app;
  await page.getByRole('button', { name: 'New chat from a preset' }).click();
  await page.getByRole('menuitem', { name: 'Code reviewer' }).click();
  await page.getByRole('button', { name: 'Instructions (set)' }).waitFor({ timeout: 10000 });
  await send(page, 'echo instructions');
  await waitText(page, 'You review code.');
  await idle(page);

  // Settings › Endpoints lists the environment's endpoint as the default; Presets lists the shipped ones.
  await page.getByRole('button', { name: /^Settings/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Endpoints' }).click();
  const envRow = dialog.getByRole('listitem', { name: /^Environment/ });
  await envRow.waitFor({ timeout: 10000 });
  assert.match(await envRow.innerText(), /default[\s\S]*from environment/);
  await envRow.getByRole('button', { name: 'Test connection' }).click();
  await envRow.getByText(/✓ Connected/).waitFor({ timeout: 10000 });
  await page.screenshot({ path: join(artifacts, 'threads-models-endpoints.png') });
  await dialog.getByRole('tab', { name: 'Presets' }).click();
  await dialog.getByRole('listitem', { name: 'Writing editor' }).waitFor({ timeout: 10000 });
  await page.screenshot({ path: join(artifacts, 'threads-models-presets.png') });
}));
