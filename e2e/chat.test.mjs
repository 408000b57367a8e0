// User story: send a message, watch the reply stream, press Stop halfway:
// the partial text stays, marked "Interrupted", and survives a reload.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { buildBinaries } from './harness.mjs';
import { inApp } from './story.mjs';

before(() => buildBinaries());

test('stream a reply and stop it halfway', inApp(async (app) => {
  const { page } = app;
  const composer = page.getByRole('textbox', { name: /message/i });
  await composer.waitFor({ timeout: 15000 });
  // The demo model streams ~600 words for "essay", paced so Stop can land mid-way.
  await composer.fill('Please write a long essay about rivers');
  await composer.press('Enter');
  const stop = page.getByRole('button', { name: /^stop/i });
  await stop.waitFor({ timeout: 10000 });
  // Wait until some of the answer has streamed in.
  await page.waitForFunction(() => document.body.innerText.split(/\s+/).length > 80, null, { timeout: 15000 });
  await stop.click();
  await page.getByText(/interrupted/i).first().waitFor({ timeout: 5000 });
  // The answer is the text between the essay's heading and its "Interrupted" mark.
  const answer = () => page.evaluate(() => {
    const t = document.querySelector('main')?.innerText ?? document.body.innerText;
    const from = t.indexOf('On Working Offline');
    return t.slice(from, t.indexOf('Interrupted', from));
  });
  const partial = await answer();
  assert.ok(partial.split(/\s+/).length > 40, `too little text kept: ${partial}`);
  assert.ok(!(await page.evaluate(() => document.body.innerText)).includes('<system>'), 'the raw interrupt tag is never shown');
  // Nothing more arrives after Stop.
  await page.waitForTimeout(800);
  assert.equal(await answer(), partial, 'the answer kept growing after Stop');
  // The send button is back, and the partial answer survives a reload.
  await page.getByRole('button', { name: /^send/i }).waitFor({ timeout: 5000 });
  await page.screenshot({ path: 'artifacts/stopped.png' }).catch(() => {});
  await page.reload();
  await page.getByText('Long Essay Rivers').first().click().catch(() => {});
  await page.getByText(/interrupted/i).first().waitFor({ timeout: 10000 });
  assert.equal(await answer(), partial, 'the partial answer changed after a reload');
}));
