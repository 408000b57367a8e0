// User story: Juncture closes while it waits for me. After a restart the
// approval card is still there and works, and a client action (copy to the
// clipboard) that was waiting does not run by itself: it asks first.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildBinaries, conversation, launch, send, latestThread, openThread } from './harness.mjs';
import { inApp } from './story.mjs';

before(() => buildBinaries());

test('a pending approval survives a restart and Allow still works', inApp({ settings: { enableWriteTools: true } }, async (app) => {
  const { page } = app;
  await send(page, 'write a note');
  await page.getByRole('article', { name: 'Approval for write_file' }).waitFor({ timeout: 15000 });
  const tid = await latestThread(app);
  const { thread } = await app.waitThread(tid, (v) => v.interrupts.length === 1 && !v.running && v.thread.title);

  await app.restartApp();
  const card = page.getByRole('article', { name: 'Approval for write_file' });
  // The app reopens the last chat; if it does not, open ours from the sidebar.
  if (!(await card.waitFor({ timeout: 8000 }).then(() => true, () => false))) await openThread(page, thread.title);
  await card.waitFor({ timeout: 10000 });
  await card.getByRole('figure', { name: /Create notes\.txt/ }).waitFor();
  assert.ok(!existsSync(join(app.workspace, 'notes.txt')));
  // Allow right away, as a person who sees the card would.
  await card.getByRole('button', { name: 'Allow once' }).click();
  const done = await app.waitThread(tid, (t) => !t.running && t.messages.at(-1)?.role === 'assistant' && t.messages.length === 4);
  const stored = done.messages.at(-1).content;
  assert.match(stored, /^The `write_file` tool returned:/);
  // The answer streamed live must be the whole stored answer, not a tail of it.
  await conversation(page).getByText(/Anything else you want me to do with it\?/).waitFor({ timeout: 10000 });
  const live = await page.getByRole('article', { name: 'Juncture said' }).last().innerText();
  assert.match(live, /^The write_file tool returned:/, `the live answer lost its start after the restart: ${JSON.stringify(live)}`);
  assert.ok(existsSync(join(app.workspace, 'notes.txt')), 'Allow after the restart wrote nothing');
  const v = await app.waitThread(tid, (t) => !t.running && t.interrupts.length === 0);
  assert.equal(v.toolStates[v.messages.find((m) => m.toolCalls)?.toolCalls[0].id], 'done');
}));

// copy_to_clipboard overwrites the person's clipboard, so it asks first:
// approve it through the one answer method, as the window does.
async function approveCopy(app, threadId) {
  const v = await app.waitThread(threadId, (x) => !x.running && x.interrupts.length === 1);
  const res = await app.api('Answer', threadId, {
    answers: [{ interruptId: v.interrupts[0].id, status: 'resolved', payload: { approved: true } }],
    clientResults: [],
  });
  assert.equal(res.continued, true);
}

test('a client action waiting at shutdown asks before it runs', async () => {
  // No page while the run happens: no window sees the call being made live.
  const app = await launch({ open: false });
  try {
    const { page } = app;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const t = await app.api('NewThread', '');
    await app.api('SendInput', t.id, 'copy this for me');
    await approveCopy(app, t.id);
    const v = await app.waitThread(t.id, (x) => !x.running && x.clientTools.length === 1);
    assert.equal(v.clientTools[0].toolName, 'copy_to_clipboard');

    await app.restartApp({ reload: false });
    await app.open();
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
    const panel = page.getByRole('region', { name: 'Actions for this window' });
    if (!(await panel.isVisible())) await openThread(page, (await app.api('GetThread', t.id)).thread.title);
    const action = panel.getByRole('group', { name: /Copy .* to the clipboard/ });
    await action.waitFor({ timeout: 10000 });
    await action.getByText('This action was waiting when Juncture closed.').waitFor();
    await action.getByRole('button', { name: 'Run now' }).waitFor();
    await action.getByRole('button', { name: 'Cancel' }).waitFor();

    // Nothing runs by itself.
    await page.waitForTimeout(1500);
    assert.equal((await app.api('GetThread', t.id)).clientTools.length, 1, 'the action ran without a click');
    assert.notEqual(await page.evaluate(() => navigator.clipboard.readText()), "Hello from Juncture's offline demo!");
    assert.ok(await action.isVisible());

    // Run now: it copies, reports, and the model continues.
    await action.getByRole('button', { name: 'Run now' }).click();
    await page.getByText(/The copy_to_clipboard tool returned/).waitFor({ timeout: 15000 });
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "Hello from Juncture's offline demo!");
    const after = await app.waitThread(t.id, (x) => !x.running && x.clientTools.length === 0);
    assert.match(after.messages.find((m) => m.role === 'tool').content, /^Copied \d+ characters/);
    await panel.waitFor({ state: 'detached', timeout: 5000 });
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await app.close();
  }
});

test('Cancel on a restored client action reports it cancelled, not run', async () => {
  const app = await launch({ open: false });
  try {
    const { page } = app;
    const t = await app.api('NewThread', '');
    await app.api('SendInput', t.id, 'copy this for me');
    await approveCopy(app, t.id);
    await app.waitThread(t.id, (x) => !x.running && x.clientTools.length === 1);
    await app.restartApp({ reload: false });
    await app.open();
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
    const panel = page.getByRole('region', { name: 'Actions for this window' });
    if (!(await panel.isVisible())) await openThread(page, (await app.api('GetThread', t.id)).thread.title);
    await panel.getByRole('button', { name: 'Cancel' }).click();
    const after = await app.waitThread(t.id, (x) => !x.running && x.clientTools.length === 0);
    const tool = after.messages.find((m) => m.role === 'tool');
    assert.ok(tool, 'no tool result after Cancel');
    assert.doesNotMatch(tool.content, /^Copied/);
    await panel.waitFor({ state: 'detached', timeout: 5000 });
  } finally {
    await app.close();
  }
});
