// User stories for issue 24: the first start with nothing configured (the
// provider picker with Test connection; a local server found with its
// models) and the update prompt ("Version X is available — what's new",
// Update) against a local signed feed. The web binary is linked with this
// test's own ed25519 public key (the private key lives only in this
// process). Screenshots (light and dark) go to e2e/artifacts/install-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, copyFileSync as copy } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { freePort, start, stop, waitFor } from './procs.mjs';

const root = resolve(import.meta.dirname, '..');
const artifacts = join(import.meta.dirname, 'artifacts');
mkdirSync(artifacts, { recursive: true });
const fakeBin = join(root, 'build/bin/fakellm');
const updBin = join(root, 'build/bin/juncture-web-update-e2e');

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const pubB64 = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
const BI = 'github.com/juncture-app/juncture/internal/buildinfo';

before(() => {
  execFileSync('go', ['build', '-o', fakeBin, './agent/fakellm/cmd/fakellm'], { cwd: root, stdio: 'inherit' });
  execFileSync('go', ['build', '-ldflags', `-X ${BI}.Version=1.0.0 -X ${BI}.UpdateKey=${pubB64}`, '-o', updBin, '.'], {
    cwd: root, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' },
  });
});

// The signed feed (app/update's format): version 1.1.0 for linux-amd64.
const ARTIFACT = Buffer.from('juncture 1.1.0 stand-in binary\n');
function feedFor(base) {
  const sha = createHash('sha256').update(ARTIFACT).digest('hex');
  const platform = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  const statement = `juncture update artifact v1\nplatform ${platform}\nversion 1.1.0\nsha256 ${sha}\n`;
  const manifest = Buffer.from(JSON.stringify({
    product: 'juncture', version: '1.1.0', notes: 'Faster start.\nA first start that connects a model.', notesUrl: 'https://juncture.app/releases/1.1.0',
    artifacts: { [platform]: { url: `${base}/juncture`, size: ARTIFACT.length, sha256: sha, signature: sign(null, Buffer.from(statement), privateKey).toString('base64') } },
  }));
  const sig = sign(null, Buffer.concat([Buffer.from('juncture update manifest v1\n'), manifest]), privateKey);
  return JSON.stringify({ manifest: manifest.toString('base64'), signature: sig.toString('base64') });
}

// app starts the web binary (a private copy, which an update may replace)
// with the given model environment ({} = nothing configured).
async function startApp(modelEnv) {
  const data = mkdtempSync(join(tmpdir(), 'juncture-e2e-install-'));
  for (const d of ['data', 'config', 'cache', 'ws', 'bin']) mkdirSync(join(data, d), { recursive: true });
  const exe = join(data, 'bin', 'juncture');
  copy(updBin, exe);
  chmodSync(exe, 0o755);
  const port = await freePort();
  const token = 'e2e-token';
  const env = {
    XDG_DATA_HOME: join(data, 'data'), XDG_CONFIG_HOME: join(data, 'config'), XDG_CACHE_HOME: join(data, 'cache'),
    JUNCTURE_WORKSPACE: join(data, 'ws'), JUNCTURE_TOKEN: token, JUNCTURE_KEY_STORAGE: 'file',
    OPENAI_BASE_URL: '', OPENAI_API_KEY: '', JUNCTURE_MODEL: '', ...modelEnv,
  };
  const proc = start(exe, ['serve', '--addr', `127.0.0.1:${port}`], env, 'juncture');
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/`);
  const api = async (method, ...args) => {
    const r = await fetch(`${base}/api/call/${method}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(args) });
    const body = await r.json();
    if (!r.ok) throw new Error(`${method}: ${JSON.stringify(body)}`);
    return body;
  };
  return { data, exe, proc, api, url: `${base}/#token=${token}`, async close() { await stop(proc); rmSync(data, { recursive: true, force: true }); } };
}

let browser;
before(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
});
after(async () => browser?.close());

async function shot(page, name) {
  for (const theme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(artifacts, `install-${name}-${theme}.png`) });
  }
}

test('first start with nothing configured: a provider with Test connection, or a local server', async () => {
  const fake = start(fakeBin, ['-addr', `127.0.0.1:${await freePort()}`], {}, 'fakellm');
  const app = await startApp({});
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(app.url);
    const setup = page.getByRole('region', { name: 'Set up a model' });
    await setup.getByText('No Ollama or LM Studio is running here.').or(setup.getByText(/^Ollama|^LM Studio/)).first().waitFor();
    for (const name of ['OpenAI', 'OpenRouter', 'Groq', 'Custom URL']) await setup.getByRole('radio', { name }).waitFor();
    await setup.getByLabel('API key').fill('sk-test');
    await shot(page, 'first-start');

    // A custom URL (the fake model stands in for a provider): Test
    // connection lists its models, and "Use" makes it the default.
    const fakeUrl = `http://${fake.spawnargs.at(-1)}/v1`;
    await waitFor(`${fakeUrl}/models`);
    await setup.getByRole('radio', { name: 'Custom URL' }).check();
    await setup.getByLabel('Server URL').fill(fakeUrl);
    await setup.getByRole('button', { name: 'Test connection' }).click();
    await setup.getByRole('combobox', { name: 'Model' }).waitFor();
    await shot(page, 'first-start-tested');
    await setup.getByRole('button', { name: 'Use this server' }).click();
    await page.getByRole('region', { name: 'New chat' }).waitFor();
    const st = await app.api('Status');
    assert.equal(st.configured, true);
    assert.equal(st.endpoint, fakeUrl);
  } finally {
    await page.close();
    await app.close();
    await stop(fake);
  }
});

test('first start with Ollama found on this computer: its models to choose from', async (t) => {
  // Detection probes the fixed local ports; the fake model listens on
  // Ollama's when it is free.
  const free = await new Promise((r) => {
    const s = http.createServer().once('error', () => r(false)).listen(11434, '127.0.0.1', () => s.close(() => r(true)));
  });
  if (!free) return t.skip('port 11434 is in use here');
  const fake = start(fakeBin, ['-addr', '127.0.0.1:11434'], {}, 'fakellm');
  await waitFor('http://127.0.0.1:11434/v1/models');
  const app = await startApp({});
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(app.url);
    const found = page.getByRole('region', { name: 'Model found on this computer' });
    await found.getByText(/Ollama/).waitFor({ timeout: 15000 });
    await found.getByRole('combobox', { name: 'Model' }).waitFor();
    await shot(page, 'first-start-ollama');
    await found.getByRole('button', { name: 'Keep using it' }).click();
    await found.waitFor({ state: 'detached' });
    const s = await app.api('GetSettings');
    assert.equal(s.settings.baseUrl, 'http://127.0.0.1:11434/v1');
  } finally {
    await page.close();
    await app.close();
    await stop(fake);
  }
});

test('update prompt: version 1.1.0 is offered by a signed local feed and Update installs it', async () => {
  let hits = [];
  const srv = http.createServer((req, res) => {
    hits.push({ url: req.url, headers: req.headers });
    const base = `http://127.0.0.1:${srv.address().port}`;
    if (req.url === '/feed.json') return res.end(feedFor(base));
    if (req.url === '/juncture') return res.end(ARTIFACT);
    res.statusCode = 404;
    res.end();
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const fake = start(fakeBin, ['-addr', `127.0.0.1:${await freePort()}`], {}, 'fakellm');
  const fakeUrl = `http://${fake.spawnargs.at(-1)}/v1`;
  await waitFor(`${fakeUrl}/models`);
  const app = await startApp({ OPENAI_BASE_URL: fakeUrl, OPENAI_API_KEY: 'e2e', JUNCTURE_MODEL: 'fake-model' });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await app.api('SaveUpdateSettings', { feedUrl: `http://127.0.0.1:${srv.address().port}/feed.json`, off: false });
    await page.goto(app.url);
    const prompt = page.getByRole('region', { name: 'Update available' });
    await prompt.getByText('Version 1.1.0 is available').waitFor();
    await prompt.getByRole('button', { name: "what's new" }).click();
    await prompt.getByText('Faster start.', { exact: false }).waitFor();
    await shot(page, 'update-prompt');
    // Only the GET of the feed: no query, no cookie, the fixed User-Agent.
    assert.equal(hits.length, 1);
    assert.equal(hits[0].headers['user-agent'], 'Juncture-Updater');
    assert.equal(hits[0].headers.cookie, undefined);
    // A reload the same day sends nothing (at most one check a day).
    await page.reload();
    await prompt.getByText('Version 1.1.0 is available').waitFor();
    assert.equal(hits.length, 1);

    await prompt.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Version 1.1.0 is installed').waitFor();
    assert.deepEqual(readFileSync(app.exe), ARTIFACT);

    // Settings → Updates: the off switch, the feed, the sentence about what is sent.
    await page.getByRole('button', { name: /settings/i }).first().click();
    await page.getByRole('tab', { name: 'Updates' }).click();
    await page.getByText('Nothing else is sent: no identifiers, no usage data, no cookies.', { exact: false }).waitFor();
    await shot(page, 'update-settings');
  } finally {
    await page.close();
    await app.close();
    await stop(fake);
    srv.close();
  }
});

test('first start with nothing configured: Try the offline demo, say hello, the demo lists what to try', async () => {
  const app = await startApp({});
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(app.url);
    const setup = page.getByRole('region', { name: 'Set up a model' });
    await setup.getByText('Scripted answers, no network — say hello to see what it can do.').waitFor();
    assert.equal(await setup.getByText(/make demo/).count(), 0, 'the first start still sends people to a terminal');
    await shot(page, 'first-start-demo');
    await setup.getByRole('button', { name: 'Try the offline demo' }).click();

    // The composer is ready, the demo selected: no terminal, no key.
    const composer = page.getByRole('textbox', { name: /message/i });
    await composer.waitFor({ timeout: 15000 });
    const eps = (await app.api('ListEndpoints')).filter((e) => e.name === 'Offline demo');
    assert.equal(eps.length, 1);
    assert.equal(eps[0].isDefault, true);
    assert.equal(eps[0].apiKey, '');
    assert.match(eps[0].baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const st = await app.api('Status');
    assert.equal(st.configured, true);
    assert.equal(st.endpoint, eps[0].baseUrl);
    await page.getByRole('button', { name: /offline-demo/ }).first().waitFor({ timeout: 10000 });

    await composer.fill('hello');
    await composer.press('Enter');
    // The greeting lists the demo's triggers.
    for (const trigger of ['write me a long essay', 'think about it', 'list files']) {
      await page.getByText(trigger).first().waitFor({ timeout: 15000 });
    }
    await page.getByRole('button', { name: /^send/i }).waitFor({ timeout: 10000 });
    await shot(page, 'demo-hello');
  } finally {
    await page.close();
    await app.close();
  }
});
