// User story: the model needs two decisions at once (an approval and a
// question). Both cards show with a counter; answering one sends nothing;
// Undo works; the answers go out together when the last one is given.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildBinaries, launch, send, latestThread, askUserLanded } from './harness.mjs';

let app;
let landed;
before(async () => {
  buildBinaries();
  app = await launch({ settings: { enableWriteTools: true } });
  landed = await askUserLanded(app);
  if (landed !== true) console.log(`# ${landed}`);
  await app.page.reload();
});
after(() => app?.close());

test('an approval and a question are answered as one batch', async (t) => {
  if (landed !== true) return t.skip(landed);
  const { page } = app;
  await page.keyboard.press('Control+n');
  await send(page, 'do a batch');
  const panel = page.getByRole('region', { name: 'Waiting for your decision' });
  const approval = panel.getByRole('article', { name: 'Approval for write_file' });
  const question = panel.getByRole('article', { name: 'Question' });
  await approval.waitFor({ timeout: 15000 });
  await question.waitFor({ timeout: 5000 });
  const counter = panel.getByRole('status').filter({ hasText: /answered/ });
  assert.match(await counter.innerText(), /0 of 2 answered/);
  assert.match(await counter.innerText(), /the run continues once all are answered/);
  // Focus goes to the first card.
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Approval for write_file');

  const tid = await latestThread(app);
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await approval.getByRole('status').getByText(/Approved/).waitFor();
  await approval.getByText(/waiting for 1 more/).waitFor();
  assert.match(await counter.innerText(), /1 of 2 answered/);
  await page.waitForTimeout(500);
  // The answer is kept by the runtime, but nothing runs before the batch is
  // complete.
  let v = await app.api('GetThread', tid);
  assert.equal(v.interrupts.length, 2, 'one answer of the batch settled the batch alone');
  assert.deepEqual(v.answered, [v.interrupts.find((it) => it.id.startsWith('approval_')).id]);
  assert.ok(!existsSync(join(app.workspace, 'batch.txt')), 'the write ran before the batch was complete');

  // Change the answer, then decide again (the kept answer is replaced).
  await approval.getByRole('button', { name: 'Change answer' }).click();
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await approval.getByRole('status').getByText(/Approved/).waitFor();
  assert.match(await counter.innerText(), /1 of 2 answered/);

  // The last answer sends both.
  await question.getByRole('radio', { name: 'System' }).check();
  await question.locator('button[type=submit]').click();
  v = await app.waitThread(tid, (x) => !x.running && x.interrupts.length === 0 && x.messages.at(-1).role === 'assistant');
  const results = v.messages.filter((m) => m.role === 'tool');
  assert.equal(results.length, 2);
  assert.match(results.find((m) => m.toolName === 'write_file').content, /batch\.txt/);
  assert.equal(results.find((m) => m.toolName === 'ask_user').content, 'System');
  assert.ok(existsSync(join(app.workspace, 'batch.txt')));
  await panel.waitFor({ state: 'detached', timeout: 10000 });
  assert.deepEqual(app.consoleErrors, []);
});
