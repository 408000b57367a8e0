// Starts the real Juncture binary in browser mode (juncture-web serve)
// against the fake model (fakellm), with a private data folder and
// workspace. The start/stop logic follows e2e/harness.mjs, without the
// browser (that file imports playwright-core, which this package does not
// need).
//
// Binaries: JUNCTURE_WEB_BIN and FAKELLM_BIN name prebuilt ones; otherwise
// both are built from the repository into a temporary folder (the Go build
// cache makes this a few seconds after the first time).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export function binaries() {
  if (process.env.JUNCTURE_WEB_BIN && process.env.FAKELLM_BIN) {
    return { web: process.env.JUNCTURE_WEB_BIN, fake: process.env.FAKELLM_BIN, cleanup() {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'juncture-interop-bin-'));
  const web = join(dir, 'juncture-web');
  const fake = join(dir, 'fakellm');
  execFileSync('go', ['build', '-o', fake, './agent/fakellm/cmd/fakellm'], { cwd: root, stdio: 'inherit' });
  execFileSync('go', ['build', '-o', web, '.'], { cwd: root, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
  return { web, fake, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
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
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  const done = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
  if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
}

// launch starts fakellm and juncture-web serve and returns
// { base, token, workspace, api(method, ...args), logs(), close() }.
export async function launch({ web, fake }) {
  const data = mkdtempSync(join(tmpdir(), 'juncture-interop-'));
  for (const d of ['data', 'config', 'cache', 'ws']) mkdirSync(join(data, d), { recursive: true });
  const fakePort = await freePort();
  const fakeProc = start(fake, ['-addr', `127.0.0.1:${fakePort}`], {}, 'fakellm');
  await waitFor(`http://127.0.0.1:${fakePort}/v1/models`);
  const appPort = await freePort();
  const token = 'interop-token';
  const env = {
    XDG_DATA_HOME: join(data, 'data'), XDG_CONFIG_HOME: join(data, 'config'), XDG_CACHE_HOME: join(data, 'cache'),
    JUNCTURE_WORKSPACE: join(data, 'ws'), JUNCTURE_TOKEN: token,
    OPENAI_BASE_URL: `http://127.0.0.1:${fakePort}/v1`, OPENAI_API_KEY: 'interop', JUNCTURE_MODEL: 'fake-model',
  };
  const app = start(web, ['serve', '--addr', `127.0.0.1:${appPort}`], env, 'juncture');
  const base = `http://127.0.0.1:${appPort}`;
  await waitFor(`${base}/`);
  // api posts one facade call (docs/contract.md) and returns its JSON result.
  async function api(method, ...args) {
    const r = await fetch(`${base}/api/call/${method}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(args),
    });
    const body = await r.json().catch(() => null);
    if (!r.ok) throw new Error(`${method}: ${body?.error?.code ?? r.status} ${body?.error?.message ?? ''}`);
    return body;
  }
  return {
    base, token, api, workspace: env.JUNCTURE_WORKSPACE,
    logs: () => `--- fakellm\n${fakeProc.log}\n--- juncture\n${app.log}`,
    async close() {
      await stop(app);
      await stop(fakeProc);
      rmSync(data, { recursive: true, force: true });
    },
  };
}
