// User story: Juncture's history file was damaged. I open a read-only copy
// (`juncture serve --read-only-copy`) and the window tells me so where I
// would act: the composer takes no text and names the copy, a new chat says
// the copy is for reading, my chats are still there to read and search, and
// Settings → Tool servers shows my servers without the controls that
// change them. Go refuses every write all the same (app.writable).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { buildBinaries, buildDamage, conversation, damageDatabase, latestThread, openThread, send } from './harness.mjs';
import { inApp } from './story.mjs';

before(() => {
  buildBinaries();
  buildDamage();
});

test('a read-only copy of a damaged history is for reading, and says so', inApp(async (app) => {
  const { page } = app;
  await send(page, 'remember the lighthouse');
  const tid = await latestThread(app);
  const { thread } = await app.waitThread(tid, (v) => !v.running && v.messages.length === 2 && v.thread.title);

  await app.stopApp();
  assert.match(damageDatabase(app), /damaged/);
  await app.startApp({ args: ['--read-only-copy'] });
  await page.goto('about:blank'); // a fresh page: nothing remembered from the live one
  await app.open();

  // The composer knows once Status answered.
  const note = page.locator('.composer').getByRole('status');
  await note.getByText(/read-only copy of Juncture’s damaged history/).waitFor({ timeout: 15000 });
  const box = page.getByRole('textbox', { name: 'Message' });
  assert.equal(await box.isDisabled(), true);
  assert.equal(await box.getAttribute('placeholder'), 'A read-only copy: nothing can be sent');
  assert.equal(await page.getByRole('button', { name: 'Open settings' }).count(), 0);

  // The chat is there to read.
  await openThread(page, thread.title);
  await conversation(page).getByText('remember the lighthouse').first().waitFor({ timeout: 10000 });
  assert.equal(await box.isDisabled(), true);
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/readonly-chat.png` });

  // A new chat: for reading, nothing to connect.
  await page.getByRole('button', { name: 'New chat', exact: true }).click();
  await page.getByRole('region', { name: 'Read-only copy' }).waitFor();
  assert.equal(await page.getByRole('region', { name: 'New chat' }).count(), 0);
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/readonly-new.png` });

  // Tool servers: shown, not changed.
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Tool servers (MCP)' }).click();
  await dialog.getByText(/read-only copy of Juncture’s damaged history: settings can be looked at here, not saved/).waitFor();
  assert.equal(await dialog.getByRole('button', { name: 'Add server…' }).count(), 0);
  assert.equal(await dialog.getByRole('button', { name: 'Edit as text' }).count(), 0);
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/readonly-settings.png` });
  await page.keyboard.press('Escape');

  // Go refuses a write from the copy whatever the window offers.
  await assert.rejects(app.api('SendInput', tid, 'sent anyway'), (e) => e.code === 'unavailable');
}));
