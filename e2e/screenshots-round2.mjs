// Issue 22 (part a): the screens this round changed, light and dark, at
// 1280×800 and 800×600, into docs/screenshots/round2/<screen>-<size>-<theme>.png.
// Run: SKIP_BUILD=1 node e2e/screenshots-round2.mjs (after building the binaries).
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBinaries, launch, send } from './harness.mjs';

const out = resolve(import.meta.dirname, '../docs/screenshots/round2');
mkdirSync(out, { recursive: true });
if (!process.env.SKIP_BUILD) buildBinaries();
const only = process.env.ONLY ? process.env.ONLY.split(',') : null;

const sizes = [
  ['1280', { width: 1280, height: 800 }],
  ['800', { width: 800, height: 600 }],
];
const themes = ['light', 'dark'];
const files = mkdtempSync(join(tmpdir(), 'juncture-shots-'));
const app = await launch({ settings: { enableWriteTools: true, theme: 'light' } });
const { page } = app;
const composer = page.getByRole('textbox', { name: /message/i });
const dialog = page.getByRole('dialog', { name: 'Settings' });

async function theme(t) {
  await page.evaluate((x) => (document.documentElement.dataset.theme = x), t);
}
async function shot(name, size, t) {
  await page.mouse.move(2, 2);
  await page.waitForTimeout(300);
  const path = join(out, `${name}-${size}-${t}.png`);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  console.log('wrote', path);
}
async function fresh(vp) {
  await page.setViewportSize(vp);
  await page.reload();
  await composer.waitFor({ timeout: 15000 });
}

// Screens: each sets the page up, then is shot in both themes.
const screens = {
  // 3, 20, 24: the one import control (styled), after importing a Juncture export.
  async import() {
    await page.keyboard.press('Control+,');
    await dialog.waitFor();
    const section = dialog.getByRole('region', { name: 'Import conversations' });
    const t = await app.api('NewThread', '');
    await app.api('SendInput', t.id, 'Plan a weekend hiking trip in the Alps');
    await app.waitThread(t.id, (v) => !v.running && v.thread.title);
    const exp = await app.api('ExportThread', t.id, 'json');
    const f = join(files, 'hiking-trip.json');
    writeFileSync(f, exp.content);
    await section.getByLabel('File to import').setInputFiles(f);
    await section.locator('.import-conversations-result').waitFor({ timeout: 10000 });
    await section.scrollIntoViewIfNeeded();
    await page.evaluate(() => document.activeElement?.blur());
  },
  // 24: an error naming the file chosen.
  async importerror() {
    await page.keyboard.press('Control+,');
    await dialog.waitFor();
    const section = dialog.getByRole('region', { name: 'Import conversations' });
    const f = join(files, 'claude-export-2024.json');
    writeFileSync(f, '[\n  {"uuid": "x", "chat_messages": 5}\n]');
    await section.getByLabel('File to import').setInputFiles(f);
    await section.locator('.import-conversations-result[role="alert"]').waitFor({ timeout: 10000 });
    await section.scrollIntoViewIfNeeded();
    await page.evaluate(() => document.activeElement?.blur());
  },
  // 22: a short tab keeps the dialog's size and place.
  async settingsupdates() {
    await page.keyboard.press('Control+,');
    await dialog.waitFor();
    await dialog.getByRole('tab', { name: 'Updates' }).click();
    await page.evaluate(() => document.activeElement?.blur());
  },
  // 5: "Change" under the workspace opens Settings at the field.
  async workspace() {
    await page.keyboard.press('Control+n');
    await page.getByRole('button', { name: 'Change the workspace folder' }).click();
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.id?.endsWith('-workspace'));
  },
  // 14: the keyboard shortcuts sheet.
  async shortcuts() {
    await page.locator('.vlist, .thread-empty').first().click({ position: { x: 5, y: 5 } }).catch(() => {});
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  },
  // 21: an approval card at 800×600 with "Always allow…" open.
  async approval() {
    await page.keyboard.press('Control+n');
    await send(page, 'Please write a note about the trip');
    const card = page.getByRole('article', { name: 'Approval for write_file' });
    await card.waitFor({ timeout: 15000 });
    await card.getByRole('button', { name: /Always allow/ }).click();
    await page.waitForTimeout(400);
  },
};

try {
  for (const [name, setup] of Object.entries(screens)) {
    if (only && !only.includes(name)) continue;
    for (const [size, vp] of sizes) {
      await fresh(vp);
      await setup();
      for (const t of themes) {
        await theme(t);
        await shot(name, size, t);
      }
    }
  }
  if (app.consoleErrors.length) console.log('page errors:', app.consoleErrors);
} finally {
  await app.close();
  rmSync(files, { recursive: true, force: true });
}
