// Starts the real Juncture binary in browser mode (juncture-web serve)
// against the fake model (fakellm), with a private data folder and
// workspace. Process handling is shared with e2e/harness.mjs
// (e2e/procs.mjs, Node built-ins only).
//
// Binaries: JUNCTURE_WEB_BIN and FAKELLM_BIN name prebuilt ones; otherwise
// both are built from the repository into a temporary folder (the Go build
// cache makes this a few seconds after the first time).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, start, stop, waitFor } from '../e2e/procs.mjs';

const root = resolve(import.meta.dirname, '..');

// everything is @modelcontextprotocol/server-everything over stdio, as
// make test installs it (agent/mcp/testdata/servers), for mcp.json.
export function everythingServer(extra = {}) {
  const index = join(root, 'agent/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  return { command: process.execPath, args: [index, 'stdio'], ...extra };
}

// edgeBinary is agent/mcp's edge server (go-sdk v1.8.0, MCP 2026-07-28:
// it asks by input_required results): EDGE_BIN, or built into dir.
function edgeBinary(dir) {
  if (process.env.EDGE_BIN) return process.env.EDGE_BIN;
  const edge = join(dir, 'edgeserver');
  execFileSync('go', ['build', '-o', edge, './agent/mcp/internal/edgeserver'], { cwd: root, stdio: 'inherit' });
  return edge;
}

export function binaries() {
  const dir = mkdtempSync(join(tmpdir(), 'juncture-interop-bin-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  if (process.env.JUNCTURE_WEB_BIN && process.env.FAKELLM_BIN) {
    return { web: process.env.JUNCTURE_WEB_BIN, fake: process.env.FAKELLM_BIN, edge: edgeBinary(dir), cleanup };
  }
  const web = join(dir, 'juncture-web');
  const fake = join(dir, 'fakellm');
  execFileSync('go', ['build', '-o', fake, './agent/fakellm/cmd/fakellm'], { cwd: root, stdio: 'inherit' });
  execFileSync('go', ['build', '-o', web, '.'], { cwd: root, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
  return { web, fake, edge: edgeBinary(dir), cleanup };
}

// launch starts fakellm and juncture-web serve and returns
// { base, token, workspace, api(method, ...args), logs(), close() }.
// opts.mcp, when set, is written as the MCP servers' configuration
// ($XDG_CONFIG_HOME/juncture/mcp.json) before the app starts.
export async function launch({ web, fake }, opts = {}) {
  const data = mkdtempSync(join(tmpdir(), 'juncture-interop-'));
  for (const d of ['data', 'config', 'cache', 'ws']) mkdirSync(join(data, d), { recursive: true });
  if (opts.mcp) {
    mkdirSync(join(data, 'config', 'juncture'), { recursive: true });
    writeFileSync(join(data, 'config', 'juncture', 'mcp.json'), JSON.stringify(opts.mcp, null, 2));
  }
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
