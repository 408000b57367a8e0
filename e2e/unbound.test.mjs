// User story: a database written by another Juncture version holds an
// approval this version cannot read (its binding has an unknown version).
// The item shows as a status line with its message, offers no controls, and
// never blocks typing: a new message is answered as usual, and the item
// stays as it was (it belongs to someone else: new input and Stop cancel
// only Juncture's own items); its call never runs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildBinaries, buildUnbind, unbindDatabase, launch, send, latestThread, openThread } from './harness.mjs';

before(() => {
  buildBinaries();
  buildUnbind();
});

// story runs the whole flow; checkKind(t, kind) judges GetThread's kind for
// the item once it is unbound.
async function story(t, { foreign, checkKind }) {
  const app = await launch({ settings: { enableWriteTools: true } });
  try {
    const { page } = app;
    await send(page, 'write a note');
    await page.getByRole('article', { name: 'Approval for write_file' }).waitFor({ timeout: 15000 });
    const tid = await latestThread(app);
    const waiting = await app.waitThread(tid, (v) => v.interrupts.length === 1 && !v.running && v.thread.title);
    const item = waiting.interrupts[0];
    assert.equal(waiting.interruptKinds[item.id], 'tool-approval');

    // Another Juncture version rewrote the binding while the app was closed.
    await app.stopApp();
    assert.match(unbindDatabase(app, { foreign }), /^unbound 1 pending interrupt/);
    await app.startApp();

    const v = await app.api('GetThread', tid);
    assert.equal(v.interrupts.length, 1, 'the unbound item is no longer listed');
    assert.equal(v.interrupts[0].id, item.id);
    assert.equal(v.running, false);
    await checkKind(t, v.interruptKinds[item.id]);
    const message = v.interrupts[0].message || v.interrupts[0].reason;
    assert.ok(message, 'the item has neither a message nor a reason');

    // The status line: the item's message, no controls.
    await page.goto(app.url);
    await page.getByRole('textbox', { name: /message/i }).waitFor({ timeout: 15000 });
    const panel = page.getByRole('region', { name: 'Waiting for your decision' });
    if (!(await panel.waitFor({ timeout: 5000 }).then(() => true, () => false))) await openThread(page, v.thread.title);
    const line = panel.getByRole('status').filter({ hasText: message });
    await line.waitFor({ timeout: 10000 });
    assert.equal(await page.getByRole('article', { name: /^Approval for/ }).count(), 0, 'an approval card is shown');
    assert.equal(await panel.getByRole('button').count(), 0, 'the status line has controls');
    assert.equal(await page.getByRole('button', { name: /^(Allow|Always allow|Deny|Edit arguments)/ }).count(), 0,
      'Allow/Deny buttons are shown for an unbound item');

    // The composer is enabled and not in "reply here to skip the request" mode.
    const composer = page.getByRole('textbox', { name: /message/i });
    assert.ok(await composer.isEnabled(), 'the composer is disabled');
    assert.equal(await composer.getAttribute('placeholder'), 'Message Juncture');
    const hint = await page.getByRole('region', { name: 'Message composer' }).innerText();
    assert.doesNotMatch(hint, /skip/i, `the composer hint speaks of skipping: ${hint}`);
    assert.match(hint, /Enter to send/);

    // Typing and sending work: a streamed answer arrives.
    const text = 'Let us move on to something else entirely';
    await send(page, text);
    const said = page.getByRole('article', { name: 'Juncture said' }).filter({ hasText: text });
    await said.waitFor({ timeout: 15000 });
    const done = await app.waitThread(tid, (x) => !x.running && x.messages.at(-1)?.role === 'assistant' &&
      x.messages.at(-1).content.includes(text));
    assert.match(done.messages.at(-1).content, /^You said:/);
    await page.getByText(/offline demo model/).last().waitFor({ timeout: 10000 });

    // New input cancels Juncture's own pending items, never an unbound one:
    // it stays listed and shown, its call has no result and never ran.
    assert.deepEqual(done.interrupts.map((it) => it.id), [item.id]);
    assert.equal(done.interruptKinds[item.id], 'unbound');
    const result = done.messages.find((m) => m.role === 'tool' && m.toolCallId === item.toolCallId);
    assert.equal(result, undefined, `the unbound item's call got a result: ${result?.content}`);
    assert.ok(!existsSync(join(app.workspace, 'notes.txt')), 'the unbound write ran');
    // Stop leaves it too.
    await app.api('Interrupt', tid);
    await page.waitForTimeout(300);
    const after = await app.api('GetThread', tid);
    assert.deepEqual(after.interrupts.map((it) => it.id), [item.id]);
    assert.ok(await line.isVisible(), 'the status line went away');
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await app.close();
  }
}

test('an approval with an unknown binding version is a status line and does not block typing', (t) =>
  story(t, {
    foreign: false,
    // The legacy public marker (metadata kind "approval", toolName, input)
    // does not make a Juncture item answerable once its binding is
    // unreadable: the API and the UI both call it unbound.
    checkKind: (_t, kind) => assert.equal(kind, 'unbound'),
  }));

test('a foreign item (unknown binding, no legacy marker) is unbound for the API and the UI alike', (t) =>
  story(t, {
    foreign: true,
    checkKind: (_t, kind) => assert.equal(kind, 'unbound'),
  }));
