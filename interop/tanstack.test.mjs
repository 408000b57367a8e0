// Interop: the stock TanStack AI client (@tanstack/ai-client, framework-
// agnostic ChatClient + fetchServerSentEvents) drives Juncture's AG-UI
// endpoint (POST /agui, browser mode) through approve and reject, and every
// raw SSE response body is accepted by @ag-ui/client 1.0's verifier.
//
// Nothing here talks to Juncture except the stock client (and the facade
// API, to enable write tools and to read what Juncture stored).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ChatClient, fetchServerSentEvents } from '@tanstack/ai-client';
import { toolDefinition } from '@tanstack/ai';
import { binaries, everythingServer, launch } from './server.mjs';
import { verifySSE } from './agui-verify.mjs';

// write_file as Juncture declares it (agent/tools/writefile.go), as a raw
// JSON Schema, and Juncture's reject branch (agent/interrupt/resume.go,
// DenialReasonSchema). The stock client only types an approval when its own
// tool definition hashes to the binding's inputSchemaHash /
// approvalSchemaHash / responseSchemaHash (tanstack-interrupts.md §9.5, §17
// step 4); otherwise the item degrades to an untyped generic.
const WRITE_FILE_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, description: 'File to write, relative to the workspace root.' },
    content: { type: 'string', description: 'The complete new content of the file.' },
  },
  required: ['path', 'content'],
  additionalProperties: false,
};
const DENIAL_REASON_SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string', maxLength: 2000 } },
  additionalProperties: false,
};
const writeFile = toolDefinition({
  name: 'write_file',
  description: 'Write a text file in the workspace (runs on the Juncture server after approval).',
  inputSchema: WRITE_FILE_SCHEMA,
  needsApproval: true,
  approvalSchema: { reject: DENIAL_REASON_SCHEMA },
});

// What the demo model (agent/fakellm/demo.go) writes for "write a note".
const NOTE = "Notes from Juncture's offline demo\n\n- Streaming works\n- Tools work\n";
const DENIED = 'Not run: the person declined this tool call.'; // agent.ResultDenied

let bins;
let srv;
const allStreams = []; // every recorded SSE body, for the final sweep

before(async () => {
  bins = binaries();
  // A real MCP server, trusted so its elicitation comes without an
  // approval first (the approval path is covered above for write_file).
  // The edge server speaks MCP 2026-07-28: its questions come as
  // input_required results, retried with the answer.
  srv = await launch(bins, { mcp: { mcpServers: { everything: everythingServer({ approval: 'trust' }), edge: { command: bins.edge } } } });
  // Write tools are off by default; the environment supplies baseUrl/model.
  const saved = await srv.api('SaveSettings', {
    baseUrl: '', apiKey: '', model: '', workspace: '', loopGuard: 25, theme: 'system', enableWriteTools: true,
  });
  assert.equal(saved.settings.enableWriteTools, true);
});

after(async () => {
  await srv?.close();
  bins?.cleanup();
});

// recorder wraps fetch: every request body and raw response bytes.
function recorder() {
  const exchanges = [];
  async function fetchClient(url, init = {}) {
    const ex = { url: String(url), method: init.method, request: init.body ? JSON.parse(init.body) : undefined };
    exchanges.push(ex);
    const res = await fetch(url, init);
    ex.status = res.status;
    ex.contentType = res.headers.get('content-type');
    ex.bytes = res.clone().arrayBuffer().then((b) => new Uint8Array(b));
    ex.bytes.then((b) => allStreams.push({ runId: ex.request?.runId, bytes: b }));
    return res;
  }
  return { exchanges, fetchClient };
}

function newClient(label) {
  const rec = recorder();
  const errors = [];
  const client = new ChatClient({
    connection: fetchServerSentEvents(`${srv.base}/agui`, {
      headers: { Authorization: `Bearer ${srv.token}` }, // Node's fetch sends no Origin
      fetchClient: rec.fetchClient,
    }),
    tools: [writeFile],
    threadId: `interop-${label}-${Date.now()}`,
    onError: (e) => errors.push(e),
  });
  return { client, rec, errors };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// settle waits until n requests were made, their bodies are complete and
// the client is idle (not loading, not submitting a resume).
async function settle({ client, rec }, n, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    if (rec.exchanges.length >= n) {
      await Promise.all(rec.exchanges.map((e) => e.bytes));
      const st = client.getInterruptState();
      if (!client.getIsLoading() && !st.resuming && client.getStatus() !== 'submitted' && client.getStatus() !== 'streaming') return;
    }
    if (Date.now() > end) {
      throw new Error(`client did not settle: ${rec.exchanges.length}/${n} requests, status ${client.getStatus()}\n${srv.logs().slice(-4000)}`);
    }
    await sleep(25);
  }
}

const decode = (b) => new TextDecoder().decode(b);

// events parses and verifies one recorded body with @ag-ui/client.
async function verified(ex) {
  assert.equal(ex.status, 200, `HTTP ${ex.status}`);
  assert.match(ex.contentType ?? '', /^text\/event-stream/);
  const bytes = await ex.bytes;
  const v = await verifySSE(bytes);
  assert.deepEqual(v.failures, [], `@ag-ui/client rejected run ${ex.request.runId}:\n${decode(bytes)}`);
  assert.deepEqual(v.warnings, [], 'fields unknown to the AG-UI 1.0 schema (stripped by enforceEvents)');
  assert.equal(v.accepted, v.events.length);
  return v.events;
}

function lastAssistantText(client) {
  const m = client.getMessages().filter((x) => x.role === 'assistant').at(-1);
  return (m?.parts ?? []).filter((p) => p.type === 'text').map((p) => p.content).join('');
}

// pause sends "write a note" and checks the interrupted run and the
// tool-approval item the stock client exposes for it.
async function pause(c) {
  rmSync(join(srv.workspace, 'notes.txt'), { force: true }); // the tests share one workspace
  await c.client.sendMessage('write a note');
  await settle(c, 1);
  const [ex] = c.rec.exchanges;
  assert.equal(ex.method, 'POST');
  assert.equal(ex.request.parentRunId, undefined);
  assert.equal(ex.request.resume, undefined);
  const events = await verified(ex);
  const runId = ex.request.runId;
  assert.equal(events[0].type, 'RUN_STARTED');
  assert.equal(events[0].runId, runId);
  const fin = events.at(-1);
  assert.equal(fin.type, 'RUN_FINISHED');
  assert.equal(fin.runId, runId);
  assert.equal(fin.outcome?.type, 'interrupt');
  assert.equal(fin.outcome.interrupts.length, 1);
  const snapIdx = events.findLastIndex((e) => e.type === 'MESSAGES_SNAPSHOT');
  assert.equal(snapIdx, events.length - 2, 'MESSAGES_SNAPSHOT immediately before the interrupt terminal');

  const items = c.client.getInterrupts();
  assert.equal(items.length, 1, 'one pending item');
  const it = items[0];
  assert.equal(it.kind, 'tool-approval', `typed approval, got ${it.kind}: ${JSON.stringify(it.errors)}`);
  assert.equal(it.canResolve, true);
  assert.equal(it.status, 'pending');
  assert.deepEqual(it.errors, []);
  assert.equal(it.toolName, 'write_file');
  assert.equal(it.interruptId, `approval_${it.toolCallId}`);
  assert.equal(it.interruptedRunId, runId, 'binding stamped with the request runId');
  assert.equal(it.generation, 0);
  assert.equal(it.threadId, ex.request.threadId);
  assert.deepEqual(it.originalArgs, { path: 'notes.txt', content: NOTE });
  assert.deepEqual(c.client.getInterruptState().interruptErrors, []);
  assert.equal(existsSync(join(srv.workspace, 'notes.txt')), false, 'nothing written before approval');
  return { it, runId, threadId: ex.request.threadId };
}

// continuation checks the request the stock client sent for the pause and
// returns the verified events of its response.
async function continuation(c, p, payload) {
  await settle(c, 2);
  assert.equal(c.rec.exchanges.length, 2, 'exactly one continuation request');
  const ex = c.rec.exchanges[1];
  assert.equal(ex.request.threadId, p.threadId);
  assert.equal(ex.request.parentRunId, p.runId);
  assert.notEqual(ex.request.runId, p.runId);
  assert.deepEqual(ex.request.resume, [{ interruptId: p.it.interruptId, status: 'resolved', payload }]);
  const events = await verified(ex);
  assert.equal(events[0].type, 'RUN_STARTED');
  assert.equal(events[0].runId, ex.request.runId);
  assert.equal(events[0].parentRunId, p.runId);
  const fin = events.at(-1);
  assert.equal(fin.type, 'RUN_FINISHED');
  assert.equal(fin.runId, ex.request.runId);
  assert.deepEqual(fin.outcome, { type: 'success' });
  const results = events.filter((e) => e.type === 'TOOL_CALL_RESULT');
  assert.equal(results.length, 1, 'one tool result per call');
  assert.equal(results[0].toolCallId, p.it.toolCallId);
  assert.deepEqual(c.client.getInterrupts(), []);
  assert.deepEqual(c.client.getInterruptState().interruptErrors, []);
  assert.deepEqual(c.errors, []);
  return { events, ex, result: results[0] };
}

// toolMessages is what Juncture stored as results of a call.
async function storedResults(threadId, toolCallId) {
  const v = await srv.api('GetThread', threadId);
  assert.deepEqual(v.interrupts, [], 'nothing pending on the server');
  return v.messages.filter((m) => m.role === 'tool' && m.toolCallId === toolCallId);
}

test('approve: the stock client approves, Juncture writes the file and answers', async () => {
  const c = newClient('approve');
  const p = await pause(c);
  p.it.resolveInterrupt(true); // a single item: resolving it submits the batch
  const { result } = await continuation(c, p, { approved: true });
  assert.match(result.content, /^Created notes\.txt/);
  assert.equal(readFileSync(join(srv.workspace, 'notes.txt'), 'utf8'), NOTE);
  assert.match(lastAssistantText(c.client), /The `write_file` tool returned:[\s\S]*Created notes\.txt/);
  const stored = await storedResults(p.threadId, p.it.toolCallId);
  assert.equal(stored.length, 1);
  assert.match(stored[0].content, /^Created notes\.txt/);
});

test('reject with a reason: the reason reaches Juncture and the model, the file is not written', async () => {
  const reason = 'Not in this folder, please.';
  const c = newClient('reject-reason');
  const p = await pause(c);
  p.it.resolveInterrupt(false, { payload: { reason } });
  const { ex, result } = await continuation(c, p, { approved: false, payload: { reason } });
  // The stock client also writes its synthetic denial into the wire history
  // (tanstack-interrupts.md §11.2). The reference server would let that
  // placeholder win and lose the reason (D1); Juncture keeps its own
  // history and uses the validated reject payload.
  const placeholder = ex.request.messages.find((m) => m.role === 'tool' && m.toolCallId === p.it.toolCallId);
  assert.deepEqual(JSON.parse(placeholder.content), { approved: false, message: 'User denied this action' });
  assert.equal(result.content, `${DENIED} Their reason: ${reason}`);
  assert.equal(existsSync(join(srv.workspace, 'notes.txt')), false);
  assert.ok(lastAssistantText(c.client).includes(`Their reason: ${reason}`), lastAssistantText(c.client));
  const stored = await storedResults(p.threadId, p.it.toolCallId);
  assert.deepEqual(stored.map((m) => m.content), [`${DENIED} Their reason: ${reason}`], 'exactly one result, the reason, no placeholder');
});

test('reject without a reason: payload {} is required by the reject branch; bare and bulk reject stay client-side', async () => {
  const c = newClient('reject-plain');
  const p = await pause(c);

  // Juncture's reject branch has a schema (the optional reason), so the
  // normalised response schema requires `payload` on a rejection. The stock
  // client enforces that itself: nothing is sent for these two.
  p.it.resolveInterrupt(false);
  await sleep(200);
  assert.equal(c.rec.exchanges.length, 1, 'bare reject is not sent');
  const bare = c.client.getInterrupts()[0];
  assert.equal(bare.status, 'error');
  assert.equal(bare.errors[0]?.code, 'invalid-payload', JSON.stringify(bare.errors));
  bare.clearResolution();

  c.client.resolveInterrupts(false);
  await sleep(200);
  assert.equal(c.rec.exchanges.length, 1, 'bulk reject is not sent');
  assert.deepEqual(c.client.getInterruptState().interruptErrors.map((e) => e.code), ['unsupported-bulk-operation']);

  c.client.getInterrupts()[0].resolveInterrupt(false, { payload: {} });
  const { result } = await continuation(c, p, { approved: false, payload: {} });
  assert.equal(result.content, DENIED);
  assert.equal(existsSync(join(srv.workspace, 'notes.txt')), false);
  assert.ok(lastAssistantText(c.client).includes(DENIED), lastAssistantText(c.client));
  const stored = await storedResults(p.threadId, p.it.toolCallId);
  assert.deepEqual(stored.map((m) => m.content), [DENIED]);
});

test('answer: a Juncture question (ask_user) is a resumable generic item; a refused answer comes back as item errors, a valid one is used', async () => {
  const c = newClient('answer');
  await c.client.sendMessage('ask me');
  await settle(c, 1);
  const first = c.rec.exchanges[0];
  const events = await verified(first);
  assert.equal(events.at(-1).outcome?.type, 'interrupt');
  const items = c.client.getInterrupts();
  assert.equal(items.length, 1);
  const q = items[0];
  // No interrupt definition is registered on this client, so the first-party
  // item (definitionId "juncture.ask_user") is an untyped generic, still
  // resumable because id, run, generation and response-schema hash agree.
  assert.equal(q.kind, 'generic');
  assert.equal(q.canResolve, true);
  assert.equal(q.message, 'Which theme do you prefer?');
  assert.equal(q.interruptedRunId, first.request.runId);
  assert.deepEqual(q.responseSchema, { enum: ['Light', 'Dark', 'System'], type: 'string' });

  // An answer that does not match the schema: the stock client does not
  // check raw JSON Schemas (D11), Juncture does and refuses the batch.
  q.resolveInterrupt({ answer: 'Dark' });
  await settle(c, 2);
  const refusedEx = c.rec.exchanges[1];
  assert.equal(refusedEx.request.parentRunId, first.request.runId);
  const refused = await verified(refusedEx);
  assert.deepEqual(refused.map((e) => e.type), ['RUN_STARTED', 'RUN_ERROR']);
  assert.equal(refused[1].code, 'invalid-payload');
  assert.deepEqual(refused[1].metadata.tanstack.interruptErrors.map((e) => e.code), ['invalid-payload', 'item-validation-failed']);
  const failed = c.client.getInterrupts();
  assert.equal(failed.length, 1, 'the question stays answerable');
  assert.equal(failed[0].status, 'error');
  assert.equal(failed[0].errors[0]?.code, 'invalid-payload');
  assert.deepEqual(c.client.getInterruptState().interruptErrors.map((e) => e.code), ['item-validation-failed']);
  c.errors.length = 0; // onError reported the refusal; expected here

  failed[0].resolveInterrupt('Dark');
  await settle(c, 3);
  const ex = c.rec.exchanges[2];
  assert.equal(ex.request.parentRunId, first.request.runId);
  assert.equal(ex.request.resume.length, 1);
  assert.equal(ex.request.resume[0].interruptId, q.interruptId);
  assert.equal(ex.request.resume[0].status, 'resolved');
  assert.equal(ex.request.resume[0].payload, 'Dark');
  const done = await verified(ex);
  assert.equal(done[0].type, 'RUN_STARTED');
  assert.deepEqual(done.at(-1).outcome, { type: 'success' });
  const results = done.filter((e) => e.type === 'TOOL_CALL_RESULT');
  assert.deepEqual(results.map((e) => e.content), ['Dark']);
  assert.deepEqual(c.client.getInterrupts(), []);
  assert.deepEqual(c.client.getInterruptState().interruptErrors, []);
  assert.deepEqual(c.errors, []);
  assert.match(lastAssistantText(c.client), /You answered:\s+> Dark/);
});

// waitMCP waits until the MCP server is ready (servers start in the
// background; the window never waits for them).
async function waitMCP(name) {
  const end = Date.now() + 20000;
  for (;;) {
    const servers = await srv.api('ListMCPServers');
    const s = servers.find((x) => x.name === name);
    if (s?.status === 'ready') return s;
    if (Date.now() > end) throw new Error(`MCP server ${name}: ${JSON.stringify(s)}\n${srv.logs().slice(-3000)}`);
    await sleep(50);
  }
}

const ELICIT = '/tool everything__trigger-elicitation-request {}';

// elicit sends the tool call and returns the question item the stock client
// exposes for the server's elicitation/create request.
async function elicit(c) {
  const { q, first } = await askedOne(c, 'everything', ELICIT, 'Please provide inputs for the following fields:');
  assert.equal(q.responseSchema.type, 'object');
  assert.equal(q.interruptedRunId, first.request.runId);
  return { q, first };
}

// askedOne sends message once the MCP server is ready and returns the one
// generic question the stock client then exposes (with the first exchange),
// which asks `message` for a required name.
async function askedOne(c, server, message, asks) {
  await waitMCP(server);
  await c.client.sendMessage(message);
  await settle(c, 1);
  const first = c.rec.exchanges[0];
  const events = await verified(first);
  assert.equal(events.at(-1).outcome?.type, 'interrupt', srv.logs().slice(-3000));
  const items = c.client.getInterrupts();
  assert.equal(items.length, 1);
  const q = items[0];
  assert.equal(q.kind, 'generic');
  assert.equal(q.canResolve, true, JSON.stringify(q.errors));
  assert.equal(q.message, asks);
  assert.deepEqual(q.responseSchema.required, ['name']);
  return { q, first };
}

test('MCP elicitation: the stock client answers a real server\'s form; the answer reaches the server and the model', async () => {
  const c = newClient('mcp-elicit');
  const { q, first } = await elicit(c);
  q.resolveInterrupt({ name: 'Ada Lovelace', check: true });
  await settle(c, 2);
  const ex = c.rec.exchanges[1];
  assert.equal(ex.request.parentRunId, first.request.runId);
  // A first-party generic item's resume entry also carries its
  // continuation (metadata), as the stock client writes it.
  assert.equal(ex.request.resume.length, 1);
  const [entry] = ex.request.resume;
  assert.deepEqual({ id: entry.interruptId, status: entry.status, payload: entry.payload },
    { id: q.interruptId, status: 'resolved', payload: { name: 'Ada Lovelace', check: true } });
  const done = await verified(ex);
  assert.equal(done[0].type, 'RUN_STARTED');
  assert.deepEqual(done.at(-1).outcome, { type: 'success' });
  const results = done.filter((e) => e.type === 'TOOL_CALL_RESULT');
  assert.equal(results.length, 1);
  assert.match(results[0].content, /Name: Ada Lovelace/);
  assert.deepEqual(c.client.getInterrupts(), []);
  assert.deepEqual(c.errors, []);
  assert.match(lastAssistantText(c.client), /Name: Ada Lovelace|everything__trigger-elicitation-request/);
});

test('MCP elicitation: cancel from the stock client is MCP\'s cancel; the server hears it', async () => {
  const c = newClient('mcp-cancel');
  const { q } = await elicit(c);
  q.cancel();
  await settle(c, 2);
  const ex = c.rec.exchanges[1];
  assert.equal(ex.request.resume[0].status, 'cancelled');
  const done = await verified(ex);
  assert.deepEqual(done.at(-1).outcome, { type: 'success' });
  const results = done.filter((e) => e.type === 'TOOL_CALL_RESULT');
  assert.equal(results.length, 1);
  assert.match(results[0].content, /cancel/i);
  assert.deepEqual(c.client.getInterrupts(), []);
});

test('MCP 2026-07-28 input_required: the stock client answers the question; the call is retried with it', async () => {
  const c = newClient('mcp-mrtr');
  const { q } = await askedOne(c, 'edge', '/tool edge__elicit {"message":"Who are you?"}', 'Who are you?');
  q.resolveInterrupt({ name: 'Ada', age: 36 });
  await settle(c, 2);
  const done = await verified(c.rec.exchanges[1]);
  assert.deepEqual(done.at(-1).outcome, { type: 'success' });
  const results = done.filter((e) => e.type === 'TOOL_CALL_RESULT');
  assert.equal(results.length, 1);
  assert.equal(results[0].content, 'action=accept content={"age":36,"name":"Ada"}');
  assert.deepEqual(c.client.getInterrupts(), []);
  assert.deepEqual(c.errors, []);
});

test('the verifier is not vacuous: a stream that starts with TOOL_CALL_RESULT (reference defect D4) fails', async () => {
  const bad = 'data: {"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":"x"}\n\n'
    + 'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n'
    + 'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n';
  const v = await verifySSE(bad);
  assert.ok(v.failures.some((f) => f.startsWith('sequence:')), JSON.stringify(v.failures));
});

test('every recorded SSE body passes @ag-ui/client 1.0 (framing, schemas, sequence, terminal)', async () => {
  assert.ok(allStreams.length >= 9, `recorded ${allStreams.length} streams`);
  for (const s of allStreams) {
    const v = await verifySSE(s.bytes);
    assert.deepEqual(v.failures, [], `run ${s.runId}:\n${decode(s.bytes)}`);
    assert.deepEqual(v.warnings, [], `run ${s.runId}: unknown fields`);
  }
});
