// User story: sign in to a protected MCP server (browser mode), against the
// test authorization server and protected MCP server of internal/oauthtest
// (run by oauthtestd). The authorization page opens in a new tab, approves
// at once and sends the answer to Juncture's loopback address; the server
// then runs signed in. It asks for more access (step-up), and Sign out
// deletes the tokens. Every token, code and verifier the test servers
// handled is then looked for in the app's files (the SQLite database, its
// WAL, logs, mcp.json) except the key storage: none may be there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildBinaries, launch } from './harness.mjs';

const root = resolve(import.meta.dirname, '..');
const artifacts = join(import.meta.dirname, 'artifacts');
const daemonBin = join(root, 'build', 'bin', 'oauthtestd');
let daemon;
let urls;

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  buildBinaries();
  execFileSync('go', ['build', '-o', daemonBin, './internal/oauthtest/cmd/oauthtestd'], { cwd: root, stdio: 'inherit' });
  daemon = spawn(daemonBin, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  urls = await new Promise((res, rej) => {
    let buf = '';
    daemon.stdout.on('data', (d) => {
      buf += d;
      const i = buf.indexOf('\n');
      if (i >= 0) res(JSON.parse(buf.slice(0, i)));
    });
    daemon.on('exit', (c) => rej(new Error(`oauthtestd exited (${c})`)));
  });
});

after(() => {
  daemon?.stdin.end();
  daemon?.kill();
});

async function shots(page, name) {
  for (const theme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: theme });
    await page.mouse.move(1270, 790);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(artifacts, `mcp-oauth-${name}-${theme}.png`), animations: 'disabled', caret: 'hide' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

function files(dir) {
  const out = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

test('sign in to a protected MCP server from Settings, allow more access, sign out; tokens only in the key storage', async () => {
  const app = await launch({ mcp: { mcpServers: { notes: { url: urls.mcp, auth: { type: 'oauth' } } } } });
  try {
    const { page } = app;
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
    await page.keyboard.press('Control+,');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('tab', { name: 'Tool servers (MCP)' }).click();
    const row = dialog.getByRole('listitem', { name: 'notes' });
    await row.getByText('Needs sign-in').waitFor({ timeout: 15000 });
    await shots(page, 'needs-sign-in');

    // The authorization page opens in a new tab and comes back to Juncture.
    const tab = page.context().waitForEvent('page');
    await row.getByRole('button', { name: 'Sign in: notes' }).click();
    const auth = await tab;
    await auth.getByText('Signed in. You can close this tab').waitFor({ timeout: 15000 });
    await auth.close();
    await row.getByText('Signed in', { exact: true }).waitFor({ timeout: 15000 });
    await row.getByText('Ready').waitFor({ timeout: 15000 });
    await row.getByText('whoami').waitFor({ timeout: 5000 });
    assert.ok(await row.getByText(urls.issuer).isVisible());
    await shots(page, 'signed-in');

    // Step-up: the server asks for notes:write; the row names it in words.
    await fetch(`${urls.control}/require?scope=${encodeURIComponent('notes:read notes:write')}`, { method: 'POST' });
    await row.getByRole('button', { name: 'Restart notes' }).click();
    await row.getByText('The server asks for more access: notes read (notes:read), notes write (notes:write).').waitFor({ timeout: 15000 });
    await shots(page, 'more-access');
    const tab2 = page.context().waitForEvent('page');
    await row.getByRole('button', { name: 'Allow more access: notes' }).click();
    const auth2 = await tab2;
    await auth2.getByText('Signed in. You can close this tab').waitFor({ timeout: 15000 });
    await auth2.close();
    await row.getByText('Ready').waitFor({ timeout: 15000 });

    // Sign out deletes the tokens: the server asks again.
    await row.getByRole('button', { name: 'Sign out of notes' }).click();
    await row.getByText('Needs sign-in').waitFor({ timeout: 15000 });

    const settings = await app.api('GetSettings');
    const keyFile = settings.keyStorage?.path ?? '';
    const secrets = await (await fetch(`${urls.control}/secrets`)).json();
    assert.ok(secrets.length >= 6, `the test servers handled ${secrets.length} secrets`);
    await app.stopApp();
    for (const p of files(app.data)) {
      if (p === keyFile) continue;
      const data = readFileSync(p, 'latin1');
      for (const s of secrets) assert.ok(!data.includes(s), `a secret (${s.slice(0, 6)}…) is in ${p}`);
    }
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await app.close();
  }
});
