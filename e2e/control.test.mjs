// User story (issue 23): the person stays in control. On the approval card
// "Always allow…" takes a duration and an argument rule that lets
// `git status` through and still asks for `git push`; "Never allow…" makes
// a deny rule with a reason. Settings › Rules lists them (edit the
// duration, export, revoke, import); Activity shows the ledger (filter,
// verify, export, open the chat at a call). Screenshots of the card, the
// rules and Activity, light and dark, at 1280×800 and 800×600.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { buildBinaries, launch, send, latestThread } from './harness.mjs';

before(() => buildBinaries());

const shots = resolve(import.meta.dirname, '../docs/screenshots');
mkdirSync(shots, { recursive: true });

/** Light and dark, 1280×800 and 800×600, of what is on screen now. */
async function screenshots(page, name) {
  for (const [w, h] of [[1280, 800], [800, 600]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
      await page.mouse.move(w - 5, h - 5);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(shots, `control-${name}-${theme}-${w}.png`), animations: 'disabled', caret: 'hide' });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => { delete document.documentElement.dataset.theme; });
}

const runCard = (page) => page.getByRole('article', { name: 'Approval for run_command' });

async function toolResults(app, tid) {
  const v = await app.api('GetThread', tid);
  return v.messages.filter((m) => m.role === 'tool').length;
}

test('card options, the rules list and the Activity view', async () => {
  const app = await launch({ settings: { enableWriteTools: true, theme: 'light' } });
  const { page } = app;
  try {
    // 1. The card: an argument rule for one hour.
    await send(page, 'please run `git status`');
    const card = runCard(page);
    await card.waitFor({ timeout: 15000 });
    await card.getByRole('button', { name: 'Always allow…' }).click();
    await card.getByRole('radio', { name: /Commands starting with “git status”/ }).check();
    await card.getByLabel('How long').selectOption('1h');
    const reach = card.getByLabel('What this rule covers');
    assert.match(await reach.innerText(), /start with the words “git status”/);
    assert.match(await reach.innerText(), /for 1 hour \(until /);
    assert.match(await reach.innerText(), /Will still ask[\s\S]*git push/);
    await screenshots(page, 'card');
    await card.getByRole('button', { name: 'Always allow', exact: true }).click();
    const tid = await latestThread(app);
    await app.waitThread(tid, (v) => !v.running && v.messages.some((m) => m.role === 'tool'));

    // The rule lets the next `git status` through without a card…
    await send(page, 'run `git status` again');
    await app.waitThread(tid, (v) => !v.running && v.messages.filter((m) => m.role === 'tool').length === 2);
    assert.equal(await runCard(page).count(), 0, 'git status asked again despite the rule');
    // …and asks for `git push`: Never allow it, with a reason.
    await send(page, 'now run `git push`');
    await runCard(page).waitFor({ timeout: 15000 });
    await runCard(page).getByRole('button', { name: 'Never allow…' }).click();
    await runCard(page).getByRole('radio', { name: /Commands starting with “git push”/ }).check();
    await runCard(page).getByLabel(/Reason — the model reads it/).fill('never push from the assistant');
    await runCard(page).getByRole('button', { name: 'Never allow', exact: true }).click();
    await app.waitThread(tid, (v) => !v.running && v.messages.filter((m) => m.role === 'tool').length === 3);
    assert.equal(await toolResults(app, tid), 3);
    let rules = await app.api('ListRules');
    assert.deepEqual(rules.map((r) => [r.pattern, r.effect ?? 'allow', r.duration ?? '']).sort(),
      [['git push', 'deny', 'forever'], ['git status', 'allow', '1h']]);

    // 2. Settings › Rules: use, duration, export, revoke, import.
    await page.keyboard.press('Control+,');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('tab', { name: 'Rules' }).click();
    const list = dialog.getByRole('region', { name: 'Rules' });
    const allowRow = list.getByRole('listitem').filter({ hasText: 'let through' });
    await allowRow.waitFor({ timeout: 5000 });
    assert.match(await allowRow.innerText(), /1 call let through/);
    const denyRow = list.getByRole('listitem').filter({ hasText: 'Never allow' });
    assert.match(await denyRow.innerText(), /never push from the assistant/);
    await allowRow.getByLabel('How long').selectOption('today');
    await list.getByText('The rule’s new duration counts from now.').waitFor({ timeout: 5000 });
    rules = await app.api('ListRules');
    assert.equal(rules.find((r) => r.pattern === 'git status').duration, 'today');
    await screenshots(page, 'rules');
    const [download] = await Promise.all([page.waitForEvent('download'), list.getByRole('button', { name: 'Export JSON…' }).click()]);
    const exported = readFileSync(await download.path(), 'utf8');
    assert.equal(JSON.parse(exported).length, 2);
    await denyRow.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByRole('button', { name: 'Close settings' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
    await page.waitForFunction(async () => true);
    for (let i = 0; i < 50 && (await app.api('ListRules')).length !== 1; i++) await page.waitForTimeout(100);
    assert.equal((await app.api('ListRules')).length, 1, 'Revoke did not remove the rule');
    await page.keyboard.press('Control+,');
    await dialog.getByRole('tab', { name: 'Rules' }).click();
    await list.getByLabel('Rules file to import').setInputFiles({ name: 'rules.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
    await list.getByText(/Imported 2 rules/).waitFor({ timeout: 5000 });
    assert.equal((await app.api('ListRules')).length, 2);
    await dialog.getByRole('button', { name: 'Close settings' }).click();

    // 3. Activity: filter, verify, export, open the chat at a call.
    await page.keyboard.press('Control+Shift+L');
    const act = page.getByRole('dialog', { name: 'Activity' });
    await act.waitFor({ timeout: 5000 });
    await act.getByLabel('Decision').selectOption('allowed-by-rule');
    const entry = act.getByRole('listitem').filter({ hasText: 'Allowed by a rule' }).first();
    await entry.waitFor({ timeout: 5000 });
    assert.match(await entry.innerText(), /git status/);
    await act.getByLabel('Decision').selectOption('');
    await act.getByLabel('Search').fill('push');
    await act.getByRole('listitem').filter({ hasText: 'Refused by a rule' }).or(act.getByRole('listitem').filter({ hasText: 'Denied' })).first().waitFor({ timeout: 5000 });
    await act.getByLabel('Search').fill('');
    await act.getByRole('button', { name: 'Verify' }).click();
    await act.getByText(/entries verified: every link holds/).waitFor({ timeout: 5000 });
    await screenshots(page, 'activity');
    const [csv] = await Promise.all([page.waitForEvent('download'), act.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.match(readFileSync(await csv.path(), 'utf8'), /^seq,at,kind,/);
    await act.getByLabel('Decision').selectOption('allowed-by-rule');
    await act.getByRole('listitem').filter({ hasText: 'Allowed by a rule' }).first().getByRole('button', { name: 'Open in chat' }).click();
    await act.waitFor({ state: 'hidden', timeout: 5000 });
    await page.getByRole('main').getByText(/git status/).first().waitFor({ timeout: 5000 });
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await app.close();
  }
});
