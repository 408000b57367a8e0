// Starts the real Juncture binary in browser mode against the fake model,
// with a private data folder, and Debian's chromium through playwright-core.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'build/bin/juncture-web');
const fakeBin = join(root, 'build/bin/fakellm');

export function buildBinaries() {
  execFileSync('go', ['build', '-o', fakeBin, './agent/fakellm/cmd/fakellm'], { cwd: root, stdio: 'inherit' });
  execFileSync('go', ['build', '-o', bin, '.'], { cwd: root, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
}

function port() {
  return 20000 + Math.floor(Math.random() * 20000);
}

async function waitFor(url, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch { /* not up yet */ }
    if (Date.now() > end) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function start(cmd, args, env, name) {
  const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  p.log = '';
  p.stdout.on('data', (d) => { p.log += d; });
  p.stderr.on('data', (d) => { p.log += d; });
  p.name = name;
  return p;
}

async function stop(p) {
  if (!p || p.exitCode !== null) return;
  const done = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
  if (p.exitCode === null) p.kill('SIGKILL');
}

// launch starts the fake model, the app and a browser page on it.
export async function launch({ dir } = {}) {
  const data = dir ?? mkdtempSync(join(tmpdir(), 'juncture-e2e-'));
  for (const d of ['data', 'config', 'cache', 'ws']) mkdirSync(join(data, d), { recursive: true });
  const fakePort = port();
  const appPort = port();
  const token = 'e2e-token';
  const fake = start(fakeBin, ['-addr', `127.0.0.1:${fakePort}`], {}, 'fakellm');
  await waitFor(`http://127.0.0.1:${fakePort}/v1/models`);
  const env = {
    XDG_DATA_HOME: join(data, 'data'), XDG_CONFIG_HOME: join(data, 'config'), XDG_CACHE_HOME: join(data, 'cache'),
    JUNCTURE_WORKSPACE: join(data, 'ws'), JUNCTURE_TOKEN: token,
    OPENAI_BASE_URL: `http://127.0.0.1:${fakePort}/v1`, OPENAI_API_KEY: 'e2e', JUNCTURE_MODEL: 'fake-model',
  };
  const app = start(bin, ['serve', '--addr', `127.0.0.1:${appPort}`], env, 'juncture');
  const url = `http://127.0.0.1:${appPort}/#token=${token}`;
  await waitFor(`http://127.0.0.1:${appPort}/`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(url);
  return {
    page, url, data, consoleErrors, app, fake,
    async restartApp() {
      await stop(app);
      this.app = start(bin, ['serve', '--addr', `127.0.0.1:${appPort}`], env, 'juncture');
      await waitFor(`http://127.0.0.1:${appPort}/`);
      await page.goto(url);
    },
    async close() {
      await browser.close();
      await stop(this.app);
      await stop(fake);
      if (!dir) rmSync(data, { recursive: true, force: true });
    },
  };
}
