// User story: I paste a screenshot and drop a PDF into the chat, see them
// as chips (a preview, the PDF's name), send, and the model receives the
// image as an image_url data URL and the PDF's text with its page count;
// the message shows the image (full size on click) and the PDF's chip. A
// model that does not take images gets a clear word in the composer.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildBinaries, launch, latestThread, pasteImage } from './harness.mjs';
import { inApp } from './story.mjs';

before(() => buildBinaries());

const root = resolve(import.meta.dirname, '..');
const pdf = readFileSync(join(root, 'store/testdata/attachments/two-pages.pdf')).toString('base64');
const artifacts = join(import.meta.dirname, 'artifacts');
mkdirSync(artifacts, { recursive: true });


async function dropPDF(page) {
  await page.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'two-pages.pdf', { type: 'application/pdf' }));
    const target = document.querySelector('main .chat-messages, main') ?? document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, pdf);
}

test('paste an image and drop a PDF: they reach the model and show in the message', inApp({ settings: { modelAcceptsImages: true, theme: 'light' } }, async (app) => {
  const { page } = app;
  const box = page.getByRole('textbox', { name: /message/i });
  await box.waitFor();
  await pasteImage(page);
  await page.getByRole('button', { name: 'Remove screenshot.png' }).waitFor({ timeout: 5000 });
  await dropPDF(page);
  await page.getByRole('button', { name: 'Remove two-pages.pdf' }).waitFor({ timeout: 5000 });
  // The chips: a preview for the image, the limits stated.
  assert.match(await page.locator('.attach-chip img').getAttribute('src'), /^data:image\/png;base64,/);
  assert.match(await page.locator('.composer-hint').innerText(), /20 MiB a file/);
  await box.fill('echo history');
  await box.press('Enter');

  // The demo model lists what it received: the image part and the PDF's text.
  const answer = page.locator('.msg-assistant').last();
  await answer.getByText(/image_url data:image\/png;base64/).waitFor({ timeout: 15000 });
  const said = await answer.innerText();
  assert.match(said, /File: two-pages\.pdf \(PDF, 2 pages\)/);
  assert.match(said, /Zephyr quarterly figures/);

  // The store lists the files on the message; the window shows them.
  const tid = await latestThread(app);
  const view = await app.waitThread(tid, (v) => !v.running);
  const user = view.messages.find((m) => m.role === 'user');
  assert.deepEqual(user.attachments.map((a) => [a.name, a.mimeType, a.pages ?? 0]), [['screenshot.png', 'image/png', 0], ['two-pages.pdf', 'application/pdf', 2]]);
  const shown = await app.api('GetAttachment', tid, user.attachments[0].id);
  assert.equal(shown.mimeType, 'image/png');
  await page.reload();
  const msg = page.locator('.msg-user').first();
  await msg.getByRole('img', { name: 'screenshot.png' }).waitFor({ timeout: 10000 });
  await msg.getByRole('button', { name: /Save two-pages\.pdf \(PDF · 2 pages/ }).waitFor();
  await page.mouse.move(1270, 790);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, 'attachments-message.png') });
  await msg.getByRole('button', { name: 'Show full size: screenshot.png' }).click();
  await page.getByRole('button', { name: 'Close image' }).waitFor();
  await page.screenshot({ path: join(artifacts, 'attachments-viewer.png') });
  await page.keyboard.press('Escape');

  // Search finds the message by the PDF's text.
  const hits = await app.api('SearchHistory', 'marmalade', 10);
  assert.ok(hits.some((h) => h.messageId === user.id), `no hit: ${JSON.stringify(hits)}`);
}));

test('a model that does not take images: the composer says so before sending', async () => {
  const app = await launch({ settings: { modelAcceptsImages: false } });
  try {
    const { page } = app;
    await page.getByRole('textbox', { name: /message/i }).waitFor();
    await pasteImage(page);
    const alert = page.locator('.composer-hint [role="alert"]');
    await alert.waitFor({ timeout: 5000 });
    assert.match(await alert.innerText(), /screenshot\.png: the current model does not accept images/);
    await page.getByRole('textbox', { name: /message/i }).fill('hello');
    assert.equal(await page.getByRole('button', { name: 'Send (Enter)' }).isDisabled(), true);
    await page.screenshot({ path: join(artifacts, 'attachments-refused.png') });
    await page.getByRole('button', { name: 'Remove screenshot.png' }).click();
    assert.equal(await page.getByRole('button', { name: 'Send (Enter)' }).isDisabled(), false);
  } finally {
    await app.close();
  }
});
