// User stories: MCP Apps. A tool whose result points at a ui:// view shows
// it in the tool block, in a sandboxed frame (agent/mcp/internal/appserver).
// The view's own tool call asks for approval and runs only after Allow; a
// hostile view (top.location, parent.document, a fetch and an image from
// another origin, window.open, a form, leaving its frame) gets nowhere; a
// flooding view is stopped; after a reload a view waits for a click.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { buildBinaries, launch, send, latestThread } from './harness.mjs';
import { freePort } from './procs.mjs';
import { newChat, serverReady } from './mcpstory.mjs';

const root = resolve(import.meta.dirname, '..');
const appserver = join(root, 'build/bin/e2e-appserver');
const artifacts = join(import.meta.dirname, 'artifacts');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The other origin a hostile view tries to reach: every request is recorded.
const probeHits = [];
let probe;
let probeURL;

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  buildBinaries();
  execFileSync('go', ['build', '-o', appserver, './agent/mcp/internal/appserver'], { cwd: root, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
  const port = await freePort();
  probe = createServer((req, res) => {
    probeHits.push(`${req.method} ${req.url}`);
    res.end('probe');
  });
  await new Promise((r) => probe.listen(port, '127.0.0.1', r));
  probeURL = `http://127.0.0.1:${port}`;
});
after(() => probe?.close());

async function shot(page, name) {
  await page.mouse.move(1270, 790);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, `mcp-apps-${name}.png`), animations: 'disabled', caret: 'hide' });
}

const lastTool = (page) => page.locator('.tool-block').last();
// The tool block that holds a view (the view's own calls add blocks after it).
const viewBlock = (page) => page.locator('.tool-block').filter({ has: page.locator('.app-view') }).last();

describe('a server with MCP Apps', () => {
  let app;
  before(async () => {
    app = await launch({ mcp: { mcpServers: { apps: { command: appserver, env: { APPSERVER_PROBE: probeURL } } } } });
    await serverReady(app, 'apps');
    await app.page.reload();
  });
  after(() => app?.close());

  test('the view shows with its input and result; its tool call asks first and runs only after Allow', async () => {
    const { page } = app;
    await page.emulateMedia({ colorScheme: 'light' });
    await newChat(page);
    await send(page, '/tool apps__clock {}');
    const frameEl = lastTool(page).locator('iframe.app-view-frame');
    await frameEl.waitFor({ timeout: 20000 }).catch(async (e) => {
      await shot(page, 'debug');
      console.log(await lastTool(page).innerHTML());
      throw e;
    });
    assert.equal(await frameEl.getAttribute('sandbox'), 'allow-scripts');
    const view = page.frameLocator('iframe.app-view-frame').last();
    await view.locator('#time').filter({ hasText: '12:00' }).waitFor({ timeout: 15000 });
    assert.equal(await view.locator('#input').innerText(), '{}');
    assert.equal(await view.locator('#theme').innerText(), 'light');
    // Resized to its content, within bounds.
    const h = await frameEl.evaluate((f) => f.getBoundingClientRect().height);
    assert.ok(h >= 48 && h <= 720, `frame height ${h}`);
    // Its origin is opaque: nothing of the window is reachable from it.
    const frame = page.frames().find((f) => f.url().includes('/appview/'));
    assert.ok(frame, 'no view frame');
    assert.equal(await frame.evaluate(() => window.origin), 'null');
    assert.equal(await frame.evaluate(() => { try { return String(window.parent.document); } catch (e) { return e.name; } }), 'SecurityError');
    await shot(page, 'light');

    // The view calls "stamp" (not read-only): an approval card, nothing ran yet.
    const threadId = await latestThread(app);
    await view.getByRole('button', { name: 'Stamp it' }).click();
    const card = page.getByRole('article', { name: /^Approval for Stamp/ });
    await card.waitFor({ timeout: 15000 });
    let v = await app.api('GetThread', threadId);
    assert.ok(!v.messages.some((m) => m.role === 'tool' && /stamped/.test(m.content)), 'stamp ran before Allow');
    await shot(page, 'approval');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await view.locator('#status').filter({ hasText: 'Done: stamped: from the clock view' }).waitFor({ timeout: 15000 });
    v = await app.waitThread(threadId, (x) => !x.running && x.messages.some((m) => m.role === 'tool' && m.content === 'stamped: from the clock view'));
    const call = v.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.name === 'apps__stamp');
    assert.match(call.id, /^view-/);
    // The ledger says the view asked for it.
    const ledger = await app.api('ListLedger', { threadId });
    const entries = ledger.filter((e) => e.callId === call.id);
    assert.ok(entries.some((e) => e.kind === 'approved' && /MCP App view/.test(e.reason ?? '')), JSON.stringify(entries));

    // A link: the person confirms (here: cancels) before anything opens.
    const pagesBefore = page.context().pages().length;
    await view.getByRole('button', { name: 'Open the docs' }).click();
    const confirm = viewBlock(page).getByRole('group', { name: 'Open example.com?' });
    await confirm.waitFor({ timeout: 5000 });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await view.locator('#status').filter({ hasText: 'Link not opened' }).waitFor({ timeout: 5000 });
    // A message for the chat: asked first, cancelled, nothing sent.
    await view.getByRole('button', { name: 'Say hi in the chat' }).click();
    const ask = viewBlock(page).getByRole('group', { name: 'The view asks to send a message' });
    await ask.getByText('hi from the clock').waitFor({ timeout: 5000 });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await view.locator('#status').filter({ hasText: 'Message not sent' }).waitFor({ timeout: 5000 });
    assert.equal(page.context().pages().length, pagesBefore);
    v = await app.api('GetThread', threadId);
    assert.ok(!v.messages.some((m) => m.role === 'user' && /hi from the clock/.test(m.content)));

    // Dark mode reaches the view.
    await page.emulateMedia({ colorScheme: 'dark' });
    await view.locator('#theme').filter({ hasText: 'dark' }).waitFor({ timeout: 5000 });
    await shot(page, 'dark');
    // Open larger, and back. Larger is a modal in the top layer: it covers
    // the window, not the message row that holds it (the row's transform
    // and containment once squeezed it to a 20 px frame under a backdrop
    // the size of the row).
    const geometry = () =>
      page.evaluate(() => {
        const f = [...document.querySelectorAll('iframe.app-view-frame')].pop().getBoundingClientRect();
        const c = document.querySelector('.composer textarea').getBoundingClientRect();
        const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
        return { w: f.width, h: f.height, vw: innerWidth, vh: innerHeight, composerHit: !!hit?.closest('.composer'), modal: !!document.querySelector('dialog.app-view-frame-wrap:modal') };
      });
    const inline = await geometry();
    assert.equal(inline.modal, false);
    assert.ok(inline.composerHit, JSON.stringify(inline));
    await viewBlock(page).getByRole('button', { name: 'Open larger' }).click();
    await view.locator('#theme').waitFor();
    const large = await geometry();
    assert.ok(large.modal && large.w >= 0.8 * large.vw && large.h >= 0.7 * large.vh, `the larger view: ${JSON.stringify(large)}`);
    assert.ok(!large.composerHit, 'the window behind the larger view takes no clicks');
    await shot(page, 'larger');
    // Back inline, the view sizes itself for the chat again (it asks, after
    // the host tells it its new place).
    const backInline = async () => {
      for (let i = 0; i < 50 && JSON.stringify(await geometry()) !== JSON.stringify(inline); i++) await page.waitForTimeout(100);
      assert.deepEqual(await geometry(), inline);
    };
    await page.getByRole('button', { name: 'Back to the chat' }).click();
    await backInline();
    // Esc goes back too, and the view lives on (a reload would have stopped it).
    await viewBlock(page).getByRole('button', { name: 'Open larger' }).click();
    assert.ok((await geometry()).modal);
    await page.keyboard.press('Escape');
    await backInline();
    await view.locator('#theme').filter({ hasText: 'dark' }).waitFor({ timeout: 5000 });
    assert.equal(await page.getByRole('button', { name: /View stopped/ }).count(), 0);
    // Larger, the view asks to send a message: the question under the frame
    // is where the person sees it (not below the dialog's fold).
    await viewBlock(page).getByRole('button', { name: 'Open larger' }).click();
    await view.getByRole('button', { name: 'Say hi in the chat' }).click();
    const askLarge = page.getByRole('group', { name: 'The view asks to send a message' });
    await askLarge.waitFor({ timeout: 5000 });
    const seen = await askLarge.evaluate((q) => {
      const d = q.closest('dialog').getBoundingClientRect();
      const r = q.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + 10, r.bottom - 5);
      return { bottom: r.bottom, dialogBottom: d.bottom, hit: !!hit && q.contains(hit) };
    });
    assert.ok(seen.hit && seen.bottom <= seen.dialogBottom, `the question is out of sight: ${JSON.stringify(seen)}`);
    await askLarge.getByRole('button', { name: 'Cancel' }).click();
    await view.locator('#status').filter({ hasText: 'Message not sent' }).waitFor({ timeout: 5000 });
    // A drag from the bar let go over the backdrop stays larger (the click's
    // target is the dialog, outside its box); a click on the backdrop goes back.
    const label = await page.locator('dialog.app-view-frame-wrap:modal .app-view-label').boundingBox();
    await page.mouse.move(label.x + 5, label.y + 5);
    await page.mouse.down();
    await page.mouse.move(3, 3, { steps: 4 });
    await page.mouse.up();
    assert.ok((await geometry()).modal, 'a drag let go over the backdrop sent the view back');
    // axe, larger and inline (a closed <dialog> shown by CSS): nothing serious.
    const axe = async () => {
      if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
      return page.evaluate(async () =>
        (await window.axe.run(document.querySelector('.app-view'), { resultTypes: ['violations'] })).violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact})`));
    };
    assert.deepEqual(await axe(), [], 'axe, larger');
    await page.mouse.click(3, 3);
    await backInline();
    assert.deepEqual(await axe(), [], 'axe, inline');
    // Stopped while larger: nothing is left modal, and the focus is on the
    // button that loads the view again (not lost to the body).
    await viewBlock(page).getByRole('button', { name: 'Open larger' }).click();
    await page.locator('dialog.app-view-frame-wrap:modal').getByRole('button', { name: 'Stop' }).click();
    const again = page.getByRole('button', { name: /View stopped/ }).last();
    await again.waitFor({ timeout: 5000 });
    assert.equal(await page.evaluate(() => document.querySelectorAll(':modal').length), 0);
    assert.ok(await again.evaluate((b) => b === document.activeElement), 'the focus was lost when the larger view stopped');
    await again.click();
    await view.locator('#time').filter({ hasText: '12:00' }).waitFor({ timeout: 15000 });
    await page.emulateMedia({ colorScheme: 'light' });

    // After a reload the view is inert until the person clicks it.
    await page.reload();
    const start = page.getByRole('button', { name: /Interactive view · apps/ }).last();
    await start.waitFor({ timeout: 15000 });
    assert.equal(await page.locator('iframe.app-view-frame').count(), 0);
    await shot(page, 'inert');
    await start.click();
    await page.frameLocator('iframe.app-view-frame').last().locator('#time').filter({ hasText: '12:00' }).waitFor({ timeout: 15000 });
    assert.deepEqual(app.consoleErrors, []);
  });

  test('a hostile view gets nowhere: the window is unchanged, nothing reaches the other origin, no page opens', async () => {
    const { page } = app;
    await page.emulateMedia({ colorScheme: 'light' });
    await newChat(page);
    const url = page.url();
    const pages = page.context().pages().length;
    probeHits.length = 0;
    // What got an answer from the other origin (a request the browser
    // refused before sending, by CSP or sandbox, gets none).
    const answered = [];
    page.context().on('response', (r) => { if (r.url().startsWith(probeURL)) answered.push(r.url()); });
    await send(page, '/tool apps__hostile {}');
    const view = page.frameLocator('iframe.app-view-frame').last();
    await view.locator('#log').filter({ hasText: 'done:' }).waitFor({ timeout: 20000 });
    const log = await view.locator('#log').innerText();
    assert.match(log, /read parent\.document: blocked \(SecurityError\)/);
    assert.match(log, /read top\.document\.cookie: blocked \(SecurityError\)/);
    assert.match(log, /read localStorage: blocked \(SecurityError\)/);
    assert.match(log, /set top\.location: blocked/);
    await shot(page, 'hostile');
    // It then tries to leave its frame: stopped, and nothing loaded.
    await lastTool(page).getByText('The view tried to load another page and was stopped.').waitFor({ timeout: 10000 });
    await page.waitForTimeout(500);
    assert.equal(page.url(), url);
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 1000 });
    assert.equal(page.context().pages().length, pages);
    assert.deepEqual(probeHits, []);
    assert.deepEqual(answered, []);
    await shot(page, 'hostile-stopped');
  });

  test('a flooding view is stopped; none of its calls, links or messages go anywhere', async () => {
    const { page } = app;
    await newChat(page);
    await send(page, '/tool apps__flood {}');
    await lastTool(page).getByText('This view sent too many messages and was stopped.').waitFor({ timeout: 20000 });
    const threadId = await latestThread(app);
    const v = await app.waitThread(threadId, (x) => !x.running);
    assert.equal(v.interrupts.length, 0, 'a flooded tools/call reached an approval');
    assert.ok(!v.messages.some((m) => m.role === 'user' && /spam/.test(m.content)));
    const box = await lastTool(page).boundingBox();
    assert.ok(box.height < 400, `the tool block grew to ${box.height}px`);
    assert.equal(page.context().pages().length, 1);
  });

  test('a view over the size budget is refused with a clear error', async () => {
    const { page } = app;
    await newChat(page);
    await send(page, '/tool apps__huge {}');
    await lastTool(page).getByText(/over the 2\.0 MB Juncture shows/).waitFor({ timeout: 20000 });
    assert.equal(await page.locator('iframe.app-view-frame').count(), 0);
  });
});
