#!/usr/bin/env node
// A stand-in for Juncture's HTTP mode, for UI work without the Go binary:
// serves dist/ plus POST /api/call/<Method> and GET /api/events (SSE) per
// docs/contract.md, with canned threads and a fake streaming model.
//
//   npm run build && node scripts/mock-server.mjs [port]   (default 18081)
//   open http://127.0.0.1:18081/#token=dev
//
// Type "approve" in a message to get tool approvals + a question, "copy"
// for a client tool, "fail" for an endpoint error. Loopback only.

import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const PORT = Number(process.argv[2] ?? 18081);
const TOKEN = 'dev';
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const now = () => Date.now();
let seq = 0;
const id = (p) => `${p}-${now().toString(36)}-${(++seq).toString(36)}`;

const settings = {
  baseUrl: 'http://127.0.0.1:11434/v1',
  apiKey: '••••1234',
  model: 'llama3.1:8b',
  workspace: '/home/ada/projects',
  loopGuard: 25,
  theme: 'system',
  enableWriteTools: true,
};
let rules = [{ id: 'r1', tool: 'run_command', scope: 'command-prefix', pattern: 'git status', createdAt: now() - 86400000 }];
const threads = new Map();

function addThread(title, msgs, extra = {}, ago = 0) {
  const t = { id: id('th'), title, pinned: false, createdAt: now() - ago - 1000, updatedAt: now() - ago };
  threads.set(t.id, {
    thread: t,
    messages: msgs.map((m, i) => ({ id: id('m'), threadId: t.id, status: 'complete', createdAt: now() - ago + i, ...m })),
    running: false,
    queued: [],
    interrupts: [],
    clientTools: [],
    toolStates: {},
    ...extra,
  });
  return t;
}

addThread('Quarterly report outline', [
  { role: 'user', content: 'Draft an outline for the quarterly report.' },
  {
    role: 'assistant',
    content:
      '## Outline\n\n1. **Summary** — revenue, costs, headcount\n2. Highlights\n3. Risks\n\n| Metric | Q1 | Q2 |\n|---|---|---|\n| Revenue | 1.2 | 1.4 |\n\n```python\ndef growth(a, b):\n    return (b - a) / a\n```\n\nSee [the template](https://example.org/template).',
    reasoning: 'The user wants a structure, not prose. Keep it short.',
  },
  { role: 'user', content: 'Now make it shorter and keep going' },
  {
    role: 'assistant',
    content: 'Sure — a shorter version:\n\n1. Summary\n2. Highlights<system>User interrupted this message</system>',
    status: 'interrupted',
  },
], {}, 3600_000);

const big = [];
for (let i = 0; i < 2000; i++) {
  big.push(
    i % 2 === 0
      ? { role: 'user', content: `Question ${i}: what about item ${i}?` }
      : { role: 'assistant', content: `Answer ${i}. Some **markdown** text.\n\n- a\n- b\n${i % 10 === 1 ? '\n```js\nconst x = ' + i + ';\n```\n' : ''}` },
  );
}
const bigT = addThread('A very long conversation (2,000 messages)', big, {}, 2 * 86400_000);

const restored = addThread('Link waiting from yesterday', [
  { role: 'user', content: 'Open the docs for me' },
  { role: 'assistant', content: 'Opening the documentation.', toolCalls: [{ id: 'tc-open', name: 'open_url', arguments: '{"url":"https://example.org/docs"}' }] },
], {}, 86400_000 + 3600_000);
threads.get(restored.id).clientTools = [
  { toolCallId: 'tc-open', threadId: restored.id, runId: 'r0', toolName: 'open_url', arguments: '{"url":"https://example.org/docs"}', state: 'pending', createdAt: now() },
];
threads.get(restored.id).toolStates = { 'tc-open': 'pending-client' };
threads.get(bigT.id).thread.pinned = true;

// ---------------------------------------------------------------- events
const clients = new Set();
function send(name, data) {
  const frame = `data: ${JSON.stringify({ name, data })}\n\n`;
  for (const res of clients) res.write(frame);
}
function agui(threadId, event) {
  send('agui', { threadId, event: { timestamp: now(), ...event } });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const runs = new Map(); // threadId → {cancelled}

function binding(kind, interruptId, runId, extra = {}) {
  return { v: 1, kind, interruptId, interruptedRunId: runId, generation: 0, ...extra };
}

async function streamText(tv, runId, ctl, text, messageId = id('m')) {
  const msg = { id: messageId, threadId: tv.thread.id, runId, role: 'assistant', content: '', status: 'streaming', createdAt: now() };
  tv.messages.push(msg);
  agui(tv.thread.id, { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' });
  for (const word of text.split(/(?<= )/)) {
    if (ctl.cancelled) {
      msg.status = 'interrupted';
      msg.content += '<system>User interrupted this message</system>';
      agui(tv.thread.id, { type: 'CUSTOM', name: 'juncture.stopped', value: { messageId, droppedToolCallIds: [] } });
      agui(tv.thread.id, { type: 'TEXT_MESSAGE_END', messageId });
      return false;
    }
    msg.content += word;
    agui(tv.thread.id, { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: word });
    await sleep(25);
  }
  msg.status = 'complete';
  agui(tv.thread.id, { type: 'TEXT_MESSAGE_END', messageId });
  return msg;
}

async function run(tv, text) {
  const threadId = tv.thread.id;
  const runId = id('run');
  const ctl = { cancelled: false };
  runs.set(threadId, ctl);
  tv.running = true;
  agui(threadId, { type: 'RUN_STARTED', threadId, runId });
  const u = { id: id('m'), threadId, runId, role: 'user', content: text, status: 'complete', createdAt: now() };
  tv.messages.push(u);
  agui(threadId, { type: 'TEXT_MESSAGE_START', messageId: u.id, role: 'user' });
  agui(threadId, { type: 'TEXT_MESSAGE_CONTENT', messageId: u.id, delta: text });
  agui(threadId, { type: 'TEXT_MESSAGE_END', messageId: u.id });
  if (!tv.thread.title) {
    tv.thread.title = text.slice(0, 40);
    send('threads', { threadId });
  }
  tv.thread.updatedAt = now();
  await sleep(200);
  const finish = (outcome) => {
    tv.running = false;
    runs.delete(threadId);
    agui(threadId, { type: 'RUN_FINISHED', threadId, runId, outcome });
    send('threads', { threadId });
    const next = tv.queued.shift();
    if (next !== undefined) {
      send('queue', { threadId, queued: tv.queued });
      setTimeout(() => run(tv, next), 50);
    }
  };
  if (/fail/i.test(text)) {
    const mid = id('m');
    tv.messages.push({ id: mid, threadId, runId, role: 'assistant', content: '', status: 'error', error: '401 Unauthorized: Incorrect API key provided: sk-…1234', createdAt: now() });
    agui(threadId, { type: 'TEXT_MESSAGE_START', messageId: mid, role: 'assistant' });
    agui(threadId, { type: 'CUSTOM', name: 'juncture.message_error', value: { messageId: mid, error: '401 Unauthorized: Incorrect API key provided: sk-…1234' } });
    agui(threadId, { type: 'TEXT_MESSAGE_END', messageId: mid });
    tv.running = false;
    runs.delete(threadId);
    agui(threadId, { type: 'RUN_ERROR', message: 'The model endpoint rejected the request (401).', code: 'endpoint' });
    return;
  }
  // Reasoning first.
  const rid = id('r');
  agui(threadId, { type: 'REASONING_START', messageId: rid });
  agui(threadId, { type: 'REASONING_MESSAGE_START', messageId: rid, role: 'reasoning' });
  for (const w of 'The person asked something; answer briefly and clearly.'.split(/(?<= )/)) {
    agui(threadId, { type: 'REASONING_MESSAGE_CONTENT', messageId: rid, delta: w });
    await sleep(15);
  }
  agui(threadId, { type: 'REASONING_MESSAGE_END', messageId: rid });
  agui(threadId, { type: 'REASONING_END', messageId: rid });
  if (/approve/i.test(text)) {
    const msg = await streamText(tv, runId, ctl, 'I will update your notes and check the repository status.', rid);
    if (!msg) return finish({ type: 'cancelled' });
    const w = { id: id('tc'), name: 'write_file', arguments: JSON.stringify({ path: 'notes/todo.md', content: '- buy milk\n- call Ada\n' }) };
    const r = { id: id('tc'), name: 'run_command', arguments: JSON.stringify({ command: 'git status --short', cwd: '/home/ada/projects/site' }) };
    msg.toolCalls = [w, r];
    for (const c of [w, r]) {
      agui(threadId, { type: 'TOOL_CALL_START', toolCallId: c.id, toolCallName: c.name, parentMessageId: msg.id });
      agui(threadId, { type: 'TOOL_CALL_ARGS', toolCallId: c.id, delta: c.arguments });
      agui(threadId, { type: 'TOOL_CALL_END', toolCallId: c.id });
      agui(threadId, { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: c.id, state: 'awaiting-approval' } });
      tv.toolStates[c.id] = 'awaiting-approval';
    }
    const schema = { oneOf: [
      { type: 'object', properties: { approved: { const: true }, editedArgs: { type: 'object' } }, required: ['approved'], additionalProperties: false },
      { type: 'object', properties: { approved: { const: false }, payload: { type: 'object' } }, required: ['approved'], additionalProperties: false },
    ] };
    const hashes = { inputSchemaHash: 'sha256:1', approvalSchemaHash: 'sha256:2', responseSchemaHash: 'sha256:3' };
    tv.interrupts = [
      { id: `approval_${w.id}`, reason: 'tool_call', message: 'Approval required to run write_file', toolCallId: w.id, responseSchema: schema,
        metadata: { 'juncture:preview': { kind: 'diff', title: 'notes/todo.md', folder: '/home/ada/projects', body: '--- a/notes/todo.md\n+++ b/notes/todo.md\n@@ -1,2 +1,2 @@\n-- buy bread\n+- buy milk\n - call Ada\n' },
          'juncture:suggestedRules': [{ scope: 'folder', pattern: '/home/ada/projects/notes' }],
          'tanstack:interruptBinding': binding('tool-approval', `approval_${w.id}`, runId, { toolName: 'write_file', toolCallId: w.id, ...hashes }) } },
      { id: `approval_${r.id}`, reason: 'tool_call', message: 'Approval required to run run_command', toolCallId: r.id, responseSchema: schema,
        metadata: { 'juncture:suggestedRules': [{ scope: 'command-prefix', pattern: 'git status' }],
          'tanstack:interruptBinding': binding('tool-approval', `approval_${r.id}`, runId, { toolName: 'run_command', toolCallId: r.id, ...hashes }) } },
      { id: id('interrupt'), reason: 'question', message: 'Which list should I add these to?',
        responseSchema: { type: 'object', title: 'Pick a list', properties: { list: { type: 'string', enum: ['home', 'work', 'errands'], title: 'List' }, urgent: { type: 'boolean', title: 'Mark as urgent' }, note: { type: 'string', title: 'Note', maxLength: 500 } }, required: ['list'] },
        metadata: {} },
      { id: 'ext-1', reason: 'review', message: 'Waiting for the CI review bot' },
    ];
    tv.interrupts[2].metadata['tanstack:interruptBinding'] = binding('generic', tv.interrupts[2].id, runId);
    tv.running = false;
    runs.delete(threadId);
    agui(threadId, { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts: tv.interrupts } });
    tv.pendingRun = { runId, calls: [w, r] };
    return;
  }
  if (/copy/i.test(text)) {
    const msg = await streamText(tv, runId, ctl, 'Copying that to your clipboard.', rid);
    if (!msg) return finish({ type: 'cancelled' });
    const c = { id: id('tc'), name: 'copy_to_clipboard', arguments: JSON.stringify({ text: 'Hello from Juncture' }) };
    msg.toolCalls = [c];
    agui(threadId, { type: 'TOOL_CALL_START', toolCallId: c.id, toolCallName: c.name, parentMessageId: msg.id });
    agui(threadId, { type: 'TOOL_CALL_ARGS', toolCallId: c.id, delta: c.arguments });
    agui(threadId, { type: 'TOOL_CALL_END', toolCallId: c.id });
    agui(threadId, { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: c.id, state: 'pending-client' } });
    tv.clientTools = [{ toolCallId: c.id, threadId, runId, toolName: c.name, arguments: c.arguments, state: 'pending', createdAt: now() }];
    return finish({ type: 'success', pendingToolCallIds: [c.id] });
  }
  const ok = await streamText(
    tv, runId, ctl,
    `Here is an answer to “${text}”.\n\nIt streams word by word, with **Markdown**, a list:\n\n- first point\n- second point\n\nand some code:\n\n\`\`\`go\nfunc main() {\n\tfmt.Println("hello")\n}\n\`\`\`\n\nThat is all.`,
    rid,
  );
  finish(ok ? { type: 'success' } : { type: 'cancelled' });
}

async function continueAfterDecisions(tv, resolutions) {
  const threadId = tv.thread.id;
  const runId = id('run');
  const pend = tv.pendingRun;
  tv.interrupts = [];
  tv.pendingRun = null;
  tv.running = true;
  agui(threadId, { type: 'RUN_STARTED', threadId, runId, parentRunId: pend?.runId });
  for (const c of pend?.calls ?? []) {
    const res = resolutions.find((r) => r.interruptId === `approval_${c.id}`);
    const approved = res?.status === 'resolved' && (res.payload === true || res.payload?.approved === true);
    const state = approved ? 'done' : 'denied';
    const result = approved ? (c.name === 'run_command' ? ' M notes/todo.md' : 'wrote 24 bytes') : 'The user denied this action';
    tv.toolStates[c.id] = state;
    if (approved) agui(threadId, { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: c.id, state: 'running' } });
    await sleep(300);
    tv.messages.push({ id: id('t'), threadId, runId, role: 'tool', toolCallId: c.id, toolName: c.name, content: result, isError: !approved, status: 'complete', createdAt: now() });
    agui(threadId, { type: 'TOOL_CALL_RESULT', messageId: id('t'), toolCallId: c.id, content: result, role: 'tool' });
    agui(threadId, { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: c.id, state } });
  }
  const ctl = { cancelled: false };
  runs.set(threadId, ctl);
  const ok = await streamText(tv, runId, ctl, 'Done. Your list is updated and the repository has one modified file.');
  tv.running = false;
  runs.delete(threadId);
  agui(threadId, { type: 'RUN_FINISHED', threadId, runId, outcome: ok ? { type: 'success' } : { type: 'cancelled' } });
}

// ---------------------------------------------------------------- methods
const err = (status, code, message, details) => ({ status, body: { error: { code, message, ...(details ? { details } : {}) } } });

const methods = {
  Status: () => ({ mode: 'browser', configured: true, endpoint: settings.baseUrl, model: settings.model, detected: 'Ollama at 127.0.0.1:11434' }),
  NewThread: () => {
    const t = addThread('', []);
    send('threads', { threadId: t.id });
    return threads.get(t.id).thread;
  },
  ListThreads: (cursor, limit) => {
    const all = [...threads.values()].map((v) => v.thread).sort((a, b) => b.updatedAt - a.updatedAt);
    const start = cursor ? Number(cursor) : 0;
    const page = all.slice(start, start + limit);
    return { threads: page, nextCursor: start + limit < all.length ? String(start + limit) : '' };
  },
  GetThread: (threadId) => threads.get(threadId) ?? err(404, 'not-found', 'No such thread'),
  SendInput: (threadId, text) => {
    const tv = threads.get(threadId);
    if (!tv) return err(404, 'not-found', 'No such thread');
    if (tv.running) {
      tv.queued.push(text);
      send('queue', { threadId, queued: tv.queued });
      return { threadId, queued: true };
    }
    if (tv.interrupts.length) {
      // Like Go: the person moved on; pending calls are answered "not run".
      for (const c of tv.pendingRun?.calls ?? []) {
        tv.toolStates[c.id] = 'interrupted';
        agui(threadId, { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: c.id, state: 'interrupted', result: 'Not run: the person replied in chat instead of answering the approval request.' } });
      }
      tv.interrupts = [];
      tv.pendingRun = null;
      tv.permissionAnswers = [];
    }
    run(tv, text);
    return { threadId, queued: false };
  },
  Interrupt: (threadId) => {
    const tv = threads.get(threadId);
    const ctl = runs.get(threadId);
    if (ctl) ctl.cancelled = true;
    else if (tv?.interrupts.length) {
      const runId = id('run');
      tv.interrupts = [];
      agui(threadId, { type: 'RUN_STARTED', threadId, runId });
      for (const c of tv.pendingRun?.calls ?? []) {
        tv.toolStates[c.id] = 'interrupted';
        agui(threadId, { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: c.id, state: 'interrupted' } });
      }
      tv.pendingRun = null;
      agui(threadId, { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'cancelled' } });
    }
    return null;
  },
  RemoveQueued: (threadId, index) => {
    const tv = threads.get(threadId);
    tv.queued.splice(index, 1);
    send('queue', { threadId, queued: tv.queued });
    return null;
  },
  ResolveInterrupts: (threadId, resolutions) => {
    // Like Go: the batch replaces anything staged by RespondPermission.
    const tv = threads.get(threadId);
    if (!tv.interrupts.length) return err(409, 'nothing-pending', 'Nothing is waiting for an answer.');
    tv.permissionAnswers = [];
    continueAfterDecisions(tv, resolutions);
    return null;
  },
  RespondPermission: (threadId, toolCallId, allow, remember) => {
    if (remember) rules.push({ id: id('rule'), tool: 'run_command', scope: remember.scope, pattern: remember.pattern, createdAt: now() });
    const tv = threads.get(threadId);
    const it = tv.interrupts.find((i) => i.toolCallId === toolCallId);
    if (!it) return err(409, 'stale', 'No pending approval for this tool call');
    const answer = { interruptId: it.id, status: 'resolved', payload: { approved: allow } };
    tv.permissionAnswers = [...(tv.permissionAnswers ?? []), answer];
    const bound = tv.interrupts.filter((i) => i.metadata?.['tanstack:interruptBinding']);
    if (tv.permissionAnswers.length === bound.length) {
      continueAfterDecisions(tv, tv.permissionAnswers);
      tv.permissionAnswers = [];
    }
    return null;
  },
  CompleteClientTool: (threadId, toolCallId, result) => {
    const tv = threads.get(threadId);
    tv.clientTools = tv.clientTools.filter((c) => c.toolCallId !== toolCallId);
    tv.toolStates[toolCallId] = result ? (result.isError ? 'failed' : 'done') : 'interrupted';
    agui(threadId, { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId, state: tv.toolStates[toolCallId] } });
    return null;
  },
  RenameThread: (threadId, title) => {
    threads.get(threadId).thread.title = title;
    send('threads', { threadId });
    return null;
  },
  PinThread: (threadId, pinned) => {
    threads.get(threadId).thread.pinned = pinned;
    send('threads', { threadId });
    return null;
  },
  DeleteThread: (threadId) => {
    threads.delete(threadId);
    send('threads', { threadId });
    return null;
  },
  SearchHistory: (query, limit) => {
    const q = query.toLowerCase();
    const hits = [];
    for (const tv of threads.values()) {
      for (const m of tv.messages) {
        const i = m.content.toLowerCase().indexOf(q);
        if (i < 0 || m.role === 'tool') continue;
        const s = Math.max(0, i - 30);
        hits.push({ threadId: tv.thread.id, threadTitle: tv.thread.title, messageId: m.id, role: m.role, createdAt: m.createdAt,
          parts: [{ text: m.content.slice(s, i), match: false }, { text: m.content.slice(i, i + q.length), match: true }, { text: m.content.slice(i + q.length, i + q.length + 60), match: false }] });
        if (hits.length >= limit) return hits;
      }
    }
    return hits;
  },
  ExportThread: (threadId, format) => {
    const tv = threads.get(threadId);
    return format === 'json'
      ? { filename: `${tv.thread.title || 'chat'}.json`, content: JSON.stringify(tv, null, 2) }
      : { filename: `${tv.thread.title || 'chat'}.md`, content: tv.messages.map((m) => `**${m.role}**: ${m.content}`).join('\n\n') };
  },
  GetSettings: () => ({ settings, sources: { baseUrl: 'saved', apiKey: 'saved', model: 'saved', workspace: 'environment', loopGuard: 'default', theme: 'default', enableWriteTools: 'saved' } }),
  SaveSettings: (s) => {
    const details = {};
    if (!/^https?:\/\//.test(s.baseUrl)) details.baseUrl = 'Enter an http:// or https:// URL.';
    if (!s.model) details.model = 'Choose a model.';
    if (Object.keys(details).length) return err(400, 'invalid-settings', 'Invalid settings', details);
    Object.assign(settings, { ...s, apiKey: s.apiKey.startsWith('••••') ? settings.apiKey : `••••${s.apiKey.slice(-4)}`, workspace: settings.workspace });
    return methods.GetSettings();
  },
  TestConnection: (s) => (/11434|1234/.test(s.baseUrl)
    ? { ok: true, message: `Connected to ${s.baseUrl}.`, models: ['llama3.1:8b', 'qwen2.5-coder:7b', 'mistral:7b'] }
    : { ok: false, message: `Could not reach ${s.baseUrl}: connection refused`, models: [] }),
  ListPermissionRules: () => rules,
  RevokePermissionRule: (ruleId) => {
    rules = rules.filter((r) => r.id !== ruleId);
    return null;
  },
};

// ---------------------------------------------------------------- server
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname.startsWith('/api/call/') && req.method === 'POST') {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'Bad token' } }));
    }
    const name = url.pathname.slice('/api/call/'.length);
    let body = '';
    for await (const chunk of req) body += chunk;
    const fn = methods[name];
    if (!fn) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ error: { code: 'not-implemented', message: `${name} is not implemented` } }));
    }
    try {
      const out = fn(...JSON.parse(body || '[]'));
      if (out && out.status && out.body) {
        res.writeHead(out.status, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify(out.body));
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify(out ?? null));
    } catch (e) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ error: { code: 'internal', message: String(e) } }));
    }
  }
  if (url.pathname === '/api/events') {
    if (url.searchParams.get('token') !== TOKEN) {
      res.writeHead(401);
      return res.end();
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.write(': hello\n\n');
    clients.add(res);
    const ka = setInterval(() => res.write(': keepalive\n\n'), 15000);
    req.on('close', () => {
      clearInterval(ka);
      clients.delete(res);
    });
    return;
  }
  const path = normalize(url.pathname === '/' ? '/index.html' : url.pathname).replace(/^(\.\.[/\\])+/, '');
  try {
    const data = await readFile(join(DIST, path));
    res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' });
    res.end(data);
  } catch {
    res.writeHead(404);
    res.end('not found');
  }
});

server.listen(PORT, '127.0.0.1', () => {
  console.log(`mock Juncture on http://127.0.0.1:${PORT}/#token=${TOKEN}`);
});
