#!/usr/bin/env node
// Juncture's transports against the TanStack AI anchor, in one invocation
// on one machine, with the runs interleaved (see bench/README.md).
//
//   node bench/transports.mjs --bin build/bin/juncture-web --anchor DIR --fake http://127.0.0.1:PORT \
//        [--out build/bench/transports.json] [--quick]
//
// DIR is an npm-ci'd copy of ../shared/bench/tanstack-anchor; PORT is its
// fake.mjs, already running (one fake serves every client kind).
//
// Measured, in rounds (each round runs every kind once, the order rotated):
//   throughput  N=20,000 tokens at d=0:
//     anchor    bench-throughput.mjs --kinds tanstack/chat (chat() in-process)
//     agui      POST /agui, until RUN_FINISHED on its stream
//     events    POST /api/call/SendInput, until that thread's RUN_FINISHED on /api/events
//     CPU: the juncture-web process's on-CPU time (/proc/<pid>/task/*/schedstat)
//     from the request to RUN_FINISHED, per token; user/sys from /proc/<pid>/stat.
//   stop        1 s into /n=100000/d=5/v1 (200 tokens/s):
//     anchor    bench-abort.mjs --kinds tanstack/chat (abort() -> loop end)
//     agui      POST /api/call/Interrupt -> RUN_FINISHED on the /agui stream
//               (and, same trial, on /api/events)
//     events    run started by SendInput; Interrupt -> RUN_FINISHED on /api/events
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  EventsStream, aguiRun, api, benchThread, cpu, cpuDelta, now, runInput, sleep, startJuncture, summarize,
} from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const QUICK = args.includes('--quick') || process.env.BENCH_QUICK === '1';
const BIN = resolve(opt('bin', 'build/bin/juncture-web'));
const ANCHOR = resolve(opt('anchor', ''));
const FAKE = opt('fake', process.env.FAKE_URL ?? '').replace(/\/$/, '');
const OUT = resolve(opt('out', 'build/bench/transports.json'));
const N = Number(opt('n', 20000));
const TP_ROUNDS = Number(opt('tp-rounds', QUICK ? 2 : 5));
const TP_PER_ROUND = Number(opt('tp-per-round', 2)); // runs of each kind per round
const STOP_ROUNDS = Number(opt('stop-rounds', QUICK ? 2 : 4));
const STOP_PER_ROUND = Number(opt('stop-per-round', QUICK ? 6 : 10)); // trials of each kind per round
const STOP_AFTER_MS = 1000;
const PACED = '/n=100000/d=5/v1';
const PROFILE = process.env.BENCH_PROFILE === '1';
if (!ANCHOR || !FAKE) { console.error('usage: transports.mjs --bin B --anchor DIR --fake URL [--out F] [--quick]'); process.exit(2); }

const { expectedText } = await import(pathToFileURL(join(ANCHOR, 'fake.mjs')).href);
const EXPECTED = expectedText(N);
const work = join(tmpdir(), `bench-transports-${process.pid}`);
mkdirSync(work, { recursive: true });
const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : '-');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const log = (...a) => console.log(...a);

// ---------- the anchor's scripts ----------
// They keep a keep-alive socket to FAKE_URL open and may not exit: done
// when --out exists. Each runs in its own process group, ended by its id.
async function anchorScript(script, scriptArgs, tag) {
  const out = join(work, `${tag}.json`);
  rmSync(out, { force: true });
  const child = spawn(process.execPath, [join(ANCHOR, script), ...scriptArgs, '--out', out], {
    cwd: ANCHOR, env: { ...process.env, FAKE_URL: FAKE }, stdio: ['ignore', 'pipe', 'inherit'], detached: true,
  });
  let text = '';
  child.stdout.on('data', (d) => { text += d; });
  let exited = false;
  child.on('exit', () => { exited = true; });
  const deadline = Date.now() + 15 * 60 * 1000;
  for (;;) {
    if (existsSync(out)) {
      try { const j = JSON.parse(readFileSync(out, 'utf8')); kill(child); return { json: j, stdout: text }; } catch { /* being written */ }
    }
    if (exited) throw new Error(`${script} exited without ${out}:\n${text}`);
    if (Date.now() > deadline) { kill(child); throw new Error(`${script} timed out`); }
    await sleep(100);
  }
}
function kill(child) {
  try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
}

// ---------- Juncture throughput ----------
function check(kind, r) {
  if (!r.finished) throw new Error(`${kind}: no terminal event`);
  if (r.finished.ev.type !== 'RUN_FINISHED') throw new Error(`${kind}: ${JSON.stringify(r.finished.ev)}`);
  if (r.afterTerminal) throw new Error(`${kind}: ${r.afterTerminal} events after RUN_FINISHED`);
  if (r.text !== EXPECTED) throw new Error(`${kind}: text mismatch (${r.text.length} of ${EXPECTED.length} chars)`);
}

async function tpAgui(j) {
  const tid = await benchThread(j);
  let cFin = null;
  const c0 = cpu(j.pid); const cc0 = process.cpuUsage(); const t0 = now();
  const r = await aguiRun(j, runInput(tid, `run-${tid}`), { onEvent: (ev) => { if (ev.type === 'RUN_FINISHED') cFin = cpu(j.pid); } });
  const cc = process.cpuUsage(cc0);
  check('agui', r);
  await sleep(200);
  const cSettled = cpu(j.pid);
  return result(r, t0, c0, cFin, cSettled, cc);
}

// A fresh /api/events connection per run, closed after it, so the /agui
// runs are measured with no browser stream to fan out to.
async function tpEvents(j) {
  const es = await new EventsStream(j).open();
  try { return await tpEventsOn(j, es); } finally { es.close(); }
}

async function tpEventsOn(j, es) {
  const tid = await benchThread(j);
  let cFin = null;
  const w = es.watch(tid, { onEvent: (ev) => { if (ev.type === 'RUN_FINISHED') cFin = cpu(j.pid); } });
  const c0 = cpu(j.pid); const cc0 = process.cpuUsage(); const t0 = now();
  await api(j, 'SendInput', tid, 'go');
  const r = await w.done;
  const cc = process.cpuUsage(cc0);
  await sleep(200);
  check('events', r);
  const cSettled = cpu(j.pid);
  es.unwatch(tid);
  return result(r, t0, c0, cFin, cSettled, cc);
}

function result(r, t0, c0, cFin, cSettled, cc) {
  const wallMs = Number(r.finished.at - t0) / 1e6;
  const d = cpuDelta(c0, cFin);
  return {
    wallMs, tokPerSec: N / (wallMs / 1e3), deltas: r.deltas, chars: r.text.length,
    serverCpuUsPerToken: d.schedUs / N, serverUserUs: d.userUs, serverSysUs: d.sysUs,
    serverTailUs: cpuDelta(cFin, cSettled).schedUs, // after RUN_FINISHED (persisting, cleanup)
    clientCpuUsPerToken: (cc.user + cc.system) / N,
  };
}

// ---------- Juncture stop ----------
async function stopAgui(j, es) {
  const tid = await benchThread(j);
  const w = es.watch(tid);
  let tStop = null; let interruptRtt = null; let textBefore = 0;
  const t0 = now();
  const timer = setTimeout(async () => {
    tStop = now();
    await api(j, 'Interrupt', tid);
    interruptRtt = Number(now() - tStop) / 1e3;
  }, STOP_AFTER_MS);
  const r = await aguiRun(j, runInput(tid, `run-${tid}`), { onEvent: (ev) => { if (tStop === null && ev.type === 'TEXT_MESSAGE_CONTENT') textBefore++; } });
  clearTimeout(timer);
  await Promise.race([w.done, sleep(5000)]);
  es.unwatch(tid);
  return stopResult('agui', r, tStop, t0, { interruptRtt, textBefore, eventsLatencyUs: w.finished ? Number(w.finished.at - tStop) / 1e3 : null, eventsAfterTerminal: w.afterTerminal });
}

async function stopEvents(j, es) {
  const tid = await benchThread(j);
  const w = es.watch(tid);
  const t0 = now();
  await api(j, 'SendInput', tid, 'go');
  await sleep(Math.max(0, STOP_AFTER_MS - Number(now() - t0) / 1e6));
  const tStop = now();
  const p = api(j, 'Interrupt', tid).then(() => Number(now() - tStop) / 1e3);
  const r = await Promise.race([w.done, sleep(10000).then(() => w)]);
  const interruptRtt = await p;
  await sleep(50);
  es.unwatch(tid);
  return stopResult('events', r, tStop, t0, { interruptRtt });
}

function stopResult(kind, r, tStop, t0, extra) {
  if (tStop === null) throw new Error(`${kind}: the stream ended before Stop (${Number(now() - t0) / 1e6} ms)`);
  if (!r.finished) throw new Error(`${kind}: no RUN_FINISHED after Stop`);
  const outcome = r.finished.ev.outcome?.type ?? r.finished.ev.type;
  if (outcome !== 'cancelled') throw new Error(`${kind}: outcome ${JSON.stringify(r.finished.ev)}`);
  if (r.afterTerminal) throw new Error(`${kind}: ${r.afterTerminal} events after RUN_FINISHED`);
  if (!EXPECTED.startsWith(r.text) && !expectedText(100000).startsWith(r.text)) throw new Error(`${kind}: text is not a prefix of the stream`);
  return { latencyUs: Number(r.finished.at - tStop) / 1e3, outcome, chars: r.text.length, deltas: r.deltas, ...extra };
}

// ---------- perf (optional) ----------
async function profile(j) {
  if (spawnSync('perf', ['--version']).status !== 0) { log('perf not available'); return null; }
  const data = join(work, 'perf.data');
  const p = spawn('perf', ['record', '-F', '2999', '-g', '-o', data, '-p', String(j.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = ''; p.stderr.on('data', (d) => { err += d; });
  await sleep(500);
  for (let i = 0; i < 3; i++) await tpAgui(j);
  p.kill('SIGINT');
  await new Promise((r) => p.once('exit', r));
  const rep = spawnSync('perf', ['report', '-i', data, '--no-children', '--sort', 'sym', '--stdio', '--percent-limit', '1.5', '-g', 'none'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const lines = (rep.stdout || '').split('\n').filter((l) => /^\s+\d/.test(l)).slice(0, 30);
  return { top: lines, stderr: err.slice(-500) };
}

// ---------- main ----------
const meta = { date: new Date().toISOString(), quick: QUICK, n: N, cpus: cpus().length, loadavgStart: loadavg(), bin: BIN };
log(`transports bench: N=${N}, ${TP_ROUNDS}×${TP_PER_ROUND} throughput runs and ${STOP_ROUNDS}×${STOP_PER_ROUND} stop trials per kind${QUICK ? ' (quick)' : ''}; load ${loadavg().map(f2).join(' ')}`);
const jt = await startJuncture(BIN, `${FAKE}/n=${N}/d=0/v1`, 'juncture-tp');
const jp = await startJuncture(BIN, `${FAKE}${PACED}`, 'juncture-paced');
const esP = await new EventsStream(jp).open();
const raw = { anchorTp: [], anchorAbort: [], agui: [], events: [], stopAgui: [], stopEvents: [], callFloor: [] };
let prof = null;
try {
  // warm-up (not counted): JIT-free Go, but the first runs create the page cache, sqlite, pools
  for (let i = 0; i < 2; i++) { await tpAgui(jt); await tpEvents(jt); }
  for (let i = 0; i < 2; i++) { await stopAgui(jp, esP); await stopEvents(jp, esP); }

  const tpKinds = {
    anchor: async () => {
      const { json } = await anchorScript('bench-throughput.mjs', ['--n', String(N), '--runs', String(TP_PER_ROUND), '--kinds', 'tanstack/chat'], `tp-${raw.anchorTp.length}`);
      raw.anchorTp.push(...json.results[0].runs.map((r) => ({ ...r, serverCpuMsPerRun: json.results[0].serverCpuMsPerRun })));
      meta.anchorVersions = json.versions;
    },
    agui: async () => { for (let i = 0; i < TP_PER_ROUND; i++) raw.agui.push(await tpAgui(jt)); },
    events: async () => { for (let i = 0; i < TP_PER_ROUND; i++) raw.events.push(await tpEvents(jt)); },
  };
  const names = Object.keys(tpKinds);
  for (let r = 0; r < TP_ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) await tpKinds[names[(k + r) % names.length]]();
    const a = raw.agui.slice(-TP_PER_ROUND); const e = raw.events.slice(-TP_PER_ROUND); const t = raw.anchorTp.slice(-TP_PER_ROUND);
    log(`  throughput round ${r + 1}/${TP_ROUNDS}: agui ${a.map((x) => f0(x.tokPerSec)).join(',')} tok/s, events ${e.map((x) => f0(x.tokPerSec)).join(',')}, tanstack ${t.map((x) => f0(x.tokPerSec)).join(',')}`);
  }

  const stopKinds = {
    anchor: async () => {
      const { json } = await anchorScript('bench-abort.mjs', ['--trials', String(STOP_PER_ROUND), '--delay', '5', '--abort-after', String(STOP_AFTER_MS), '--kinds', 'tanstack/chat'], `ab-${raw.anchorAbort.length}`);
      raw.anchorAbort.push(...json.results[0].trials.map((t) => ({ latencyUs: t.latencyUs, serverCloseLagUs: t.serverCloseLagUs, eventsAfterAbort: t.eventsAfterAbort, threw: t.threw })));
    },
    agui: async () => { for (let i = 0; i < STOP_PER_ROUND; i++) { raw.stopAgui.push(await stopAgui(jp, esP)); await sleep(20); } },
    events: async () => { for (let i = 0; i < STOP_PER_ROUND; i++) { raw.stopEvents.push(await stopEvents(jp, esP)); await sleep(20); } },
    // The floor of any Stop over HTTP: the round trip of a call that does
    // nothing (Status reads the settings), on the same busy server.
    floor: async () => {
      for (let i = 0; i < STOP_PER_ROUND; i++) {
        const t = now();
        await api(jp, 'Status');
        raw.callFloor.push({ latencyUs: Number(now() - t) / 1e3 });
        await sleep(20);
      }
    },
  };
  const stopNames = Object.keys(stopKinds);
  for (let r = 0; r < STOP_ROUNDS; r++) {
    for (let k = 0; k < stopNames.length; k++) await stopKinds[stopNames[(k + r) % stopNames.length]]();
    log(`  stop round ${r + 1}/${STOP_ROUNDS} done (${raw.stopAgui.length} agui, ${raw.stopEvents.length} events, ${raw.anchorAbort.length} tanstack trials)`);
  }
  if (PROFILE) prof = await profile(jt);
} finally {
  esP.close();
  await jt.stop(); await jp.stop();
  rmSync(work, { recursive: true, force: true });
}

// ---------- summary ----------
const S = (xs, k) => summarize(xs.map((x) => x[k]).filter((v) => v !== null && v !== undefined));
const sum = {
  anchorTp: { tps: S(raw.anchorTp, 'tokPerSec'), cpu: S(raw.anchorTp, 'cpuUsPerToken') },
  agui: { tps: S(raw.agui, 'tokPerSec'), cpu: S(raw.agui, 'serverCpuUsPerToken'), client: S(raw.agui, 'clientCpuUsPerToken'), tail: S(raw.agui, 'serverTailUs') },
  events: { tps: S(raw.events, 'tokPerSec'), cpu: S(raw.events, 'serverCpuUsPerToken'), client: S(raw.events, 'clientCpuUsPerToken'), tail: S(raw.events, 'serverTailUs') },
  anchorAbort: S(raw.anchorAbort, 'latencyUs'),
  stopAgui: S(raw.stopAgui, 'latencyUs'),
  stopAguiOnEvents: S(raw.stopAgui, 'eventsLatencyUs'),
  stopEvents: S(raw.stopEvents, 'latencyUs'),
  interruptRtt: S([...raw.stopAgui, ...raw.stopEvents], 'interruptRtt'),
  callFloor: S(raw.callFloor, 'latencyUs'),
};
const split = (xs) => {
  const u = xs.reduce((a, x) => a + x.serverUserUs, 0); const s = xs.reduce((a, x) => a + x.serverSysUs, 0);
  return { userPct: (100 * u) / (u + s || 1), sysPct: (100 * s) / (u + s || 1) };
};
sum.agui.split = split(raw.agui);
sum.events.split = split(raw.events);

const rows = [];
const row = (figure, j, a, fmt, goal, met) => rows.push({ figure, juncture: j, anchor: a, ratio: j / a, goal, met, fmt });
row('/agui tokens/s (median)', sum.agui.tps.median, sum.anchorTp.tps.median, f0, '≥ 8×', sum.agui.tps.median / sum.anchorTp.tps.median >= 8);
row('/agui server CPU µs/token (median)', sum.agui.cpu.median, sum.anchorTp.cpu.median, f2, '≤ 0.125×', sum.agui.cpu.median / sum.anchorTp.cpu.median <= 0.125);
row('/api/events tokens/s (median)', sum.events.tps.median, sum.anchorTp.tps.median, f0, '≥ 8×', sum.events.tps.median / sum.anchorTp.tps.median >= 8);
row('/api/events server CPU µs/token (median)', sum.events.cpu.median, sum.anchorTp.cpu.median, f2, '≤ 0.125×', sum.events.cpu.median / sum.anchorTp.cpu.median <= 0.125);
row('Stop → RUN_FINISHED on /agui, p50 ms', sum.stopAgui.p50 / 1e3, sum.anchorAbort.p50 / 1e3, f2, '-', null);
row('Stop → RUN_FINISHED on /agui, p99 ms', sum.stopAgui.p99 / 1e3, sum.anchorAbort.p99 / 1e3, f2, '≤ 0.5×', sum.stopAgui.p99 / sum.anchorAbort.p99 <= 0.5);
row('Stop → RUN_FINISHED on /api/events, p50 ms', sum.stopEvents.p50 / 1e3, sum.anchorAbort.p50 / 1e3, f2, '-', null);
row('Stop → RUN_FINISHED on /api/events, p99 ms', sum.stopEvents.p99 / 1e3, sum.anchorAbort.p99 / 1e3, f2, '≤ 0.5×', sum.stopEvents.p99 / sum.anchorAbort.p99 <= 0.5);
row('  (same /agui trials, seen on /api/events) p99 ms', sum.stopAguiOnEvents.p99 / 1e3, sum.anchorAbort.p99 / 1e3, f2, '≤ 0.5×', sum.stopAguiOnEvents.p99 / sum.anchorAbort.p99 <= 0.5);
row('HTTP call floor (Status round trip), p50 ms', sum.callFloor.p50 / 1e3, sum.anchorAbort.p50 / 1e3, f2, '-', null);
row('HTTP call floor (Status round trip), p99 ms', sum.callFloor.p99 / 1e3, sum.anchorAbort.p99 / 1e3, f2, '-', null);

const W = [48, 10, 10, 8, 9, 9];
const line = (c) => `| ${c.map((x, i) => String(x).padEnd(W[i])).join(' | ')} |`;
log('');
log(line(['figure', 'Juncture', 'anchor', 'ratio', 'goal', 'goal met?']));
log(line(W.map((w) => '-'.repeat(w))));
for (const r of rows) log(line([r.figure, r.fmt(r.juncture), r.fmt(r.anchor), `${f2(r.ratio)}×`, r.goal, r.met === null ? '' : r.met ? 'yes' : 'NO']));
log('');
log(`anchor = TanStack chat() (${raw.anchorTp.length} throughput runs, ${raw.anchorAbort.length} abort trials: abort() → loop end, in-process); Juncture n = ${raw.agui.length}/${raw.events.length} runs, ${raw.stopAgui.length}/${raw.stopEvents.length} stop trials.`);
log(`server CPU split user/sys: /agui ${f0(sum.agui.split.userPct)}/${f0(sum.agui.split.sysPct)} %, /api/events ${f0(sum.events.split.userPct)}/${f0(sum.events.split.sysPct)} %; ` +
  `CPU after RUN_FINISHED (200 ms): /agui ${f1(sum.agui.tail.median / 1e3)} ms, events ${f1(sum.events.tail.median / 1e3)} ms per run; ` +
  `bench client CPU µs/token: /agui ${f2(sum.agui.client.median)}, events ${f2(sum.events.client.median)}.`);
log(`Interrupt call round trip p50 ${f2(sum.interruptRtt.p50 / 1e3)} ms, p99 ${f2(sum.interruptRtt.p99 / 1e3)} ms (part of the Stop figures; the anchor's abort() is a function call).`);
log(`tokens/s ranges: /agui ${f0(sum.agui.tps.min)}–${f0(sum.agui.tps.max)}, events ${f0(sum.events.tps.min)}–${f0(sum.events.tps.max)}, tanstack ${f0(sum.anchorTp.tps.min)}–${f0(sum.anchorTp.tps.max)}; load at end ${loadavg().map(f2).join(' ')}`);
if (prof) { log('perf (3 /agui runs, self time by symbol):'); for (const l of prof.top) log(`  ${l.trim()}`); }

meta.loadavgEnd = loadavg();
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, JSON.stringify({ meta, table: rows.map(({ fmt, ...r }) => r), summary: sum, raw, profile: prof }, null, 2));
log(`wrote ${OUT}`);
process.exit(0);
