// Helpers for the transport benchmarks: start juncture-web against the
// anchor's fake OpenAI server, read a process's CPU time from /proc, speak
// the facade (/api/call), /agui and /api/events with node:http (no SSE
// library, so the client costs as little as possible and the same for
// every transport), and summarise samples.
import http from 'node:http';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, start, stop, waitFor } from '../e2e/procs.mjs';

export const now = () => process.hrtime.bigint();
export const usSince = (t0) => Number(now() - t0) / 1e3;

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

// ---------- /proc CPU ----------
const CLK_TCK = 100; // USER_HZ on Linux

// cpu returns the CPU time of a process: sched (ns on CPU, summed over
// /proc/<pid>/task/*/schedstat, exact), and user/sys (µs, from
// /proc/<pid>/stat utime/stime, 10 ms resolution, including exited threads).
export function cpu(pid) {
  let schedNs = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      schedNs += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch { /* the thread exited between readdir and read */ }
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
  const userUs = (Number(f[11]) * 1e6) / CLK_TCK;
  const sysUs = (Number(f[12]) * 1e6) / CLK_TCK;
  return { schedUs: schedNs / 1e3, userUs, sysUs };
}
export function cpuDelta(a, b) {
  return { schedUs: b.schedUs - a.schedUs, userUs: b.userUs - a.userUs, sysUs: b.sysUs - a.sysUs };
}

// ---------- stats ----------
export function quantile(sorted, q) { // nearest rank, like the anchor's common.mjs
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
export function summarize(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { n: s.length, min: s[0], p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), max: s.at(-1), median,
    mean: s.reduce((a, b) => a + b, 0) / (s.length || 1) };
}

// ---------- juncture-web ----------
// startJuncture runs `juncture-web serve` with a private data folder and
// OPENAI_BASE_URL = baseURL. Returns { base, token, pid, proc, stop }.
export async function startJuncture(bin, baseURL, name = 'juncture') {
  const dir = mkdtempSync(join(tmpdir(), 'juncture-bench-'));
  for (const d of ['data', 'config', 'cache', 'ws']) mkdirSync(join(dir, d), { recursive: true });
  const port = await freePort();
  const token = 'bench-token';
  const env = {
    XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'),
    JUNCTURE_WORKSPACE: join(dir, 'ws'), JUNCTURE_TOKEN: token,
    OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'bench', JUNCTURE_MODEL: 'bench-model',
  };
  const proc = start(bin, ['serve', '--addr', `127.0.0.1:${port}`], env, name);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/`);
  return {
    base, token, pid: proc.pid, proc, dir,
    async stop() { await stop(proc); rmSync(dir, { recursive: true, force: true }); },
  };
}

function request(j, method, path, body, { stream = false, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(path, j.base);
    const data = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req = http.request(u, {
      method, agent: stream ? false : agent,
      headers: { Authorization: `Bearer ${j.token}`, ...(data ? { 'Content-Type': 'application/json', 'Content-Length': data.length } : {}), ...headers },
    }, (res) => {
      if (stream) { resolve(res); return; }
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode >= 400) reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`));
        else resolve(text ? JSON.parse(text) : null);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

// api posts one facade call (docs/contract.md) and returns its JSON result.
export function api(j, method, ...args) {
  return request(j, 'POST', `/api/call/${method}`, args);
}

// benchThread creates a titled thread, so the app's automatic naming
// (a second model call after the first exchange) never runs during a bench.
export async function benchThread(j, title = 'bench') {
  const t = await api(j, 'NewThread', '');
  await api(j, 'RenameThread', t.id, title);
  return t.id;
}

// SSE frames parser: calls onData(dataString) for every `data:` payload.
// Frames are split on the blank line; only single-line data (what Juncture
// writes) is needed.
function sseParser(onData) {
  let carry = '';
  return (chunk) => {
    const s = carry + chunk;
    let from = 0;
    for (;;) {
      const end = s.indexOf('\n\n', from);
      if (end < 0) break;
      const frame = s.slice(from, end);
      from = end + 2;
      const i = frame.startsWith('data: ') ? 0 : frame.indexOf('\ndata: ');
      if (i >= 0) onData(frame.slice(i === 0 ? 6 : i + 7));
    }
    carry = s.slice(from);
  };
}

export function runInput(threadId, runId, text = 'go') {
  return { threadId, runId, messages: [{ id: `u-${runId}`, role: 'user', content: text }], tools: [], context: [], state: {}, forwardedProps: {} };
}

// aguiRun POSTs a RunAgentInput and resolves when the stream ends, with the
// delta text, the event types' counts and when RUN_FINISHED arrived.
// onEvent(ev) sees every event.
export async function aguiRun(j, input, { onEvent } = {}) {
  const res = await request(j, 'POST', '/agui', input, { stream: true });
  if (res.statusCode !== 200) throw new Error(`/agui ${res.statusCode}`);
  res.setEncoding('utf8');
  let text = ''; let deltas = 0; let events = 0; let finished = null; let last = null; let afterTerminal = 0;
  const user = new Set(); // ids of echoed user messages: their text is not the answer
  const parse = sseParser((d) => {
    const ev = JSON.parse(d);
    events++;
    if (finished) afterTerminal++;
    last = ev;
    if (ev.type === 'TEXT_MESSAGE_CONTENT') { if (!user.has(ev.messageId)) { text += ev.delta; deltas++; } }
    else if (ev.type === 'TEXT_MESSAGE_START') { if (ev.role === 'user') user.add(ev.messageId); }
    else if (ev.type === 'RUN_FINISHED' || ev.type === 'RUN_ERROR') finished = { at: now(), ev };
    if (onEvent) onEvent(ev);
  });
  await new Promise((resolve, reject) => {
    res.on('data', parse);
    res.on('end', resolve);
    res.on('error', reject);
  });
  return { text, deltas, events, finished, last, afterTerminal };
}

// EventsStream is one /api/events connection. waitRun(threadId) resolves
// with the run's answer text (TEXT_MESSAGE_CONTENT of messages other than
// the echoed user message) when that thread's RUN_FINISHED (or RUN_ERROR) arrives.
export class EventsStream {
  constructor(j) { this.j = j; this.runs = new Map(); this.frames = 0; }
  async open() {
    this.res = await request(this.j, 'GET', `/api/events`, undefined, { stream: true, headers: { Accept: 'text/event-stream' } });
    if (this.res.statusCode !== 200) throw new Error(`/api/events ${this.res.statusCode}`);
    this.res.setEncoding('utf8');
    const parse = sseParser((d) => this.onData(d));
    this.res.on('data', parse);
    return this;
  }
  onData(d) {
    this.frames++;
    // Only "agui" frames of watched threads are decoded; the rest are counted.
    if (!d.startsWith('{"name":"agui"')) return;
    const f = JSON.parse(d);
    const r = this.runs.get(f.data.threadId);
    if (!r) return;
    const ev = f.data.event;
    if (r.finished) { r.afterTerminal++; return; }
    r.events++;
    if (ev.type === 'TEXT_MESSAGE_CONTENT') { if (!r.user.has(ev.messageId)) { r.text += ev.delta; r.deltas++; } }
    else if (ev.type === 'TEXT_MESSAGE_START') { if (ev.role === 'user') r.user.add(ev.messageId); }
    else if (ev.type === 'RUN_FINISHED' || ev.type === 'RUN_ERROR') {
      r.finished = { at: now(), ev };
      r.resolve(r);
    }
    if (r.onEvent) r.onEvent(ev);
  }
  watch(threadId, { onEvent } = {}) {
    const r = { text: '', deltas: 0, events: 0, finished: null, afterTerminal: 0, onEvent, user: new Set() };
    r.done = new Promise((resolve) => { r.resolve = resolve; });
    this.runs.set(threadId, r);
    return r;
  }
  unwatch(threadId) { this.runs.delete(threadId); }
  close() { this.res?.destroy(); }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
