// Starts the real Juncture binary in browser mode against the fake model,
// with a private data folder, and Debian's chromium through playwright-core.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { freePort, start, stop, waitFor } from './procs.mjs';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'build/bin/juncture-web');
const fakeBin = join(root, 'build/bin/fakellm');
const unbindBin = join(root, 'build/bin/e2e-unbind');
const damageBin = join(root, 'build/bin/e2e-damage');

export function buildBinaries() {
  execFileSync('go', ['build', '-o', fakeBin, './agent/fakellm/cmd/fakellm'], { cwd: root, stdio: 'inherit' });
  execFileSync('go', ['build', '-o', bin, '.'], { cwd: root, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
}

// buildUnbind builds e2e/unbind (see unbindDatabase).
export function buildUnbind() {
  execFileSync('go', ['build', '-o', unbindBin, './e2e/unbind'], { cwd: root, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
}

// buildDamage builds e2e/damage (see damageDatabase).
export function buildDamage() {
  execFileSync('go', ['build', '-o', damageBin, './e2e/damage'], { cwd: root, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
}

// damageDatabase breaks the stopped app's database (e2e/damage): the app
// then refuses it and offers a read-only copy.
export function damageDatabase(app) {
  return execFileSync(damageBin, ['-db', app.dbPath], { encoding: 'utf8' }).trim();
}

// unbindDatabase gives every pending interrupt in the app's database an
// unknown binding version, as a future Juncture might have written it. The
// app must be stopped (app.stopApp()). foreign also removes the legacy
// approval marker (see e2e/unbind). Returns the program's report line.
export function unbindDatabase(app, { foreign = false } = {}) {
  return execFileSync(unbindBin, ['-db', app.dbPath, ...(foreign ? ['-foreign'] : [])], { encoding: 'utf8' }).trim();
}

// callApi posts one facade call (docs/contract.md) with the bearer token and
// returns its JSON result; an error answer throws with its code and message.
async function callApi(base, token, method, ...args) {
  const r = await fetch(`${base}/api/call/${method}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  });
  const body = await r.json().catch(() => null);
  if (!r.ok) {
    const e = new Error(`${method}: ${body?.error?.code ?? r.status} ${body?.error?.message ?? ''}`);
    e.code = body?.error?.code;
    e.details = body?.error?.details;
    throw e;
  }
  return body;
}

// launch starts the fake model, the app and a browser page on it.
//   settings: fields merged into the saved settings (SaveSettings) before the
//             page loads, e.g. { enableWriteTools: true };
//   open:     false to leave the page blank (call app.open() later);
//   mcp:      the MCP configuration (a JSON object, e.g. { mcpServers: {…} }),
//             written to <config>/juncture/mcp.json before the app starts.
export async function launch({ dir, settings, open = true, mcp } = {}) {
  const data = dir ?? mkdtempSync(join(tmpdir(), 'juncture-e2e-'));
  for (const d of ['data', 'config', 'cache', 'ws']) mkdirSync(join(data, d), { recursive: true });
  if (mcp) {
    mkdirSync(join(data, 'config', 'juncture'), { recursive: true });
    writeFileSync(join(data, 'config', 'juncture', 'mcp.json'), JSON.stringify(mcp, null, 2));
  }
  const fakePort = await freePort();
  const appPort = await freePort();
  const token = 'e2e-token';
  const fake = start(fakeBin, ['-addr', `127.0.0.1:${fakePort}`], {}, 'fakellm');
  await waitFor(`http://127.0.0.1:${fakePort}/v1/models`);
  const env = {
    XDG_DATA_HOME: join(data, 'data'), XDG_CONFIG_HOME: join(data, 'config'), XDG_CACHE_HOME: join(data, 'cache'),
    JUNCTURE_WORKSPACE: join(data, 'ws'), JUNCTURE_TOKEN: token,
    OPENAI_BASE_URL: `http://127.0.0.1:${fakePort}/v1`, OPENAI_API_KEY: 'e2e', JUNCTURE_MODEL: 'fake-model',
  };
  const app = start(bin, ['serve', '--addr', `127.0.0.1:${appPort}`], env, 'juncture');
  const base = `http://127.0.0.1:${appPort}`;
  const url = `${base}/#token=${token}`;
  await waitFor(`${base}/`);
  const api = (method, ...args) => callApi(base, token, method, ...args);
  if (settings) {
    const cur = await api('GetSettings');
    await api('SaveSettings', { ...cur.settings, ...settings });
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  if (open) await page.goto(url);
  return {
    page, url, data, consoleErrors, app, fake, api, browser,
    workspace: env.JUNCTURE_WORKSPACE,
    dbPath: join(env.XDG_DATA_HOME, 'juncture', 'juncture.db'),
    async open() {
      await page.goto(url);
    },
    // restartApp stops the server (SIGTERM) and starts it again on the same
    // data; the page reloads unless reload is false.
    async restartApp({ reload = true } = {}) {
      await stop(this.app);
      this.app = start(bin, ['serve', '--addr', `127.0.0.1:${appPort}`], env, 'juncture');
      await waitFor(`${base}/`);
      if (reload) await page.goto(url);
    },
    // stopApp stops the server (SIGTERM) and waits for it to exit, so its
    // database can be changed; startApp starts it again on the same data
    // and port. The page is left as it is (reload it or call open()).
    async stopApp() {
      await stop(this.app);
      if (this.app.exitCode === null && this.app.signalCode === null) {
        await new Promise((r) => this.app.once('exit', r));
      }
    },
    // args: more flags for `juncture serve` (e.g. ['--read-only-copy']).
    async startApp({ args = [] } = {}) {
      this.app = start(bin, ['serve', '--addr', `127.0.0.1:${appPort}`, ...args], env, 'juncture');
      await waitFor(`${base}/`);
    },
    // waitThread polls GetThread until pred(view) holds.
    async waitThread(threadId, pred, ms = 15000) {
      const end = Date.now() + ms;
      for (;;) {
        const v = await api('GetThread', threadId);
        if (pred(v)) return v;
        if (Date.now() > end) throw new Error(`thread ${threadId} never reached the state: ${JSON.stringify(v).slice(0, 2000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      await browser.close();
      await stop(this.app);
      await stop(fake);
      if (!dir) rmSync(data, { recursive: true, force: true });
    },
  };
}

// send types text into the composer and sends it with Enter.
export async function send(page, text) {
  const composer = page.getByRole('textbox', { name: /message/i });
  await composer.waitFor({ timeout: 15000 });
  await composer.fill(text);
  await composer.press('Enter');
}

// latestThread is the id of the most recently updated conversation.
// A message just sent may still be creating its chat: wait for one (≤ 15 s).
export async function latestThread(app) {
  for (let i = 0; ; i++) {
    const { threads } = await app.api('ListThreads', '', 50);
    if (threads?.length) return [...threads].sort((a, b) => b.updatedAt - a.updatedAt)[0].id;
    if (i >= 150) throw new Error('no conversations');
    await new Promise((r) => setTimeout(r, 100));
  }
}

// chatText is the visible text of the open conversation.
/** The conversation's messages (not the screen reader's announcer, which repeats an answer's start). */
export function conversation(page) {
  return page.getByRole('log', { name: 'Conversation' });
}

export function chatText(page) {
  // What the eyes read: the screen reader's announcer is visually hidden.
  return page.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) return '';
    return [...main.children].filter((c) => !c.classList.contains('visually-hidden')).map((c) => c.innerText).join('\n');
  });
}

// openThread clicks a conversation in the sidebar by (part of) its title.
export async function openThread(page, title) {
  const item = page.getByRole('navigation', { name: 'Conversation history' }).getByRole('button', { name: title }).first();
  await item.waitFor({ timeout: 10000 });
  await item.click();
}

// askUserLanded probes the runtime: a run that makes the demo model call
// ask_user must stop at a question, not come back with an unknown-tool
// error. Returns true when ask_user works, else a reason string.
export async function askUserLanded(app) {
  const t = await app.api('NewThread', '');
  await app.api('SendInput', t.id, 'ask me something');
  const v = await app.waitThread(t.id, (x) => !x.running && (x.interrupts.length > 0 || x.messages.some((m) => m.role === 'tool') ||
    x.messages.at(-1)?.role === 'assistant' && !x.messages.at(-1).toolCalls));
  if (v.interrupts.length) {
    await app.api('DeleteThread', t.id).catch(() => {});
    return true;
  }
  const tool = v.messages.find((m) => m.role === 'tool');
  return `ask_user not landed (${tool ? tool.content.slice(0, 120) : v.messages.at(-1)?.content.slice(0, 120)})`;
}

// Pastes into the composer a 64×40 PNG drawn in the page (a blue block with
// a yellow bar), as a person pasting a screenshot.
export async function pasteImage(page) {
  await page.evaluate(async () => {
    const c = document.createElement('canvas');
    c.width = 64;
    c.height = 40;
    const g = c.getContext('2d');
    g.fillStyle = '#2f6fde';
    g.fillRect(0, 0, 64, 40);
    g.fillStyle = '#f5c400';
    g.fillRect(8, 16, 48, 8);
    const blob = await new Promise((r) => c.toBlob(r, 'image/png'));
    const dt = new DataTransfer();
    dt.items.add(new File([blob], 'screenshot.png', { type: 'image/png' }));
    const box = document.querySelector('textarea');
    box.focus();
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  });
}
