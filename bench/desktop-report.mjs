#!/usr/bin/env node
// The tables of scripts/bench-desktop.sh, from the raw lines it recorded:
//   size juncture|floor|floorfair BYTES          dist BYTES           clk TICKS_PER_S
//   idletotal WHO ROUND PSS_MIB RSS_MIB   (WHO: juncture, floor, floorfair)
//   idle WHO ROUND app|web|net|other PSS_KIB RSS_KIB
//   thread before|after KIND PSS_KIB RSS_KIB               thread opened CHANGED_PIXELS
//   expect N CHARS    expectmd N CHARS (bench/mdfake.mjs's text)
//   stream MODE RUN N MICROS CHARS STATE APP0 KIDS0 APP1 KIDS1 APP2 KIDS2
//   area MODE RUN RECTS PX LARGEST_PX   (what the window redrew in the answer's first 4 s, bench/xstop -area)
//   startup floor|juncture cold|warm ROUND MS WINDOW_MS   (launch → the first key taken, → the window shown)
//   stop TRIAL PAINTED_MS RECEIVED_MS SHOWN_MS RUNTIME_US ESC_TO_GO_MS FRAME_MS TASK_MS   (the page's
//        Esc → cancelled state painted, → the cancelled RUN_FINISHED received, → the DOM showing it;
//        the runtime's share in Go; Esc → the Interrupt call reaching Go; → the callback of the frame
//        that renders it; → the task posted from that callback, lib/benchTitle.ts; SCREEN_MS: the X
//        server's Esc → the Stop button's pixels changed on the screen, bench/xstop, '-' without it;
//        KEY_MS: the X server's Esc → the page's keydown)
//
//   node bench/desktop-report.mjs RAW OUT.json
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

const [rawPath, out] = process.argv.slice(2);
const lines = readFileSync(rawPath, 'utf8').split('\n').filter(Boolean).map((l) => l.trim().split(/\s+/));
const med = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const get = (tag, ...keys) => lines.filter((l) => l[0] === tag && keys.every((k, i) => k === undefined || l[i + 1] === k));
const num = (x) => Number(x);
const clk = num(get('clk')[0]?.[1] ?? 100);
const size = (who) => num(get('size', who)[0]?.[2]);
const dist = num(get('dist')[0]?.[1] ?? NaN);

// Idle: totals per round, per-process medians.
const idleTotals = (who) => get('idletotal', who).map((l) => [num(l[3]), num(l[4])]);
const tj = idleTotals('juncture');
const tf = idleTotals('floor');
const pssJ = med(tj.map((x) => x[0]));
const pssF = med(tf.map((x) => x[0]));
const rssJ = med(tj.map((x) => x[1]));
const rssF = med(tf.map((x) => x[1]));
const perKind = (who, kind, col) => {
  const rounds = new Map();
  for (const l of get('idle', who)) if (l[3] === kind) rounds.set(l[2], (rounds.get(l[2]) ?? 0) + num(l[col]));
  return med([...rounds.values()]) / 1024;
};

const sj = size('juncture');
const sf = size('floor');
const sff = size('floorfair');
const tff = idleTotals('floorfair');
const pssFF = med(tff.map((x) => x[0]));
const mb = (x) => (x / 1e6).toFixed(1);
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : '-');
const ratio = (a, b) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : '-');

function table(head, rows, widths) {
  const line = (c) => `| ${c.map((x, i) => String(x).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(head));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
}

// Long thread.
const thread = (when) => {
  const r = get('thread', when).filter((l) => l[2] !== 'opened');
  const sum = (kind, col) => r.filter((l) => kind === undefined || l[2] === kind).reduce((a, l) => a + num(l[col]), 0) / 1024;
  return { total: sum(undefined, 3), app: sum('app', 3), web: sum('web', 3), net: sum('net', 3), rss: sum(undefined, 4) };
};
const tb = thread('before');
const ta = thread('after');
const opened = num(get('thread', 'opened')[0]?.[2] ?? NaN);

const summary = [
  ['binary size MB (stripped, desktop tags)', mb(sj), mb(sf), ratio(sj, sf), '≤ 1.10×', sj / sf <= 1.1 ? 'yes' : 'NO'],
  ['idle PSS MiB (app + WebKit, 8 s)', f0(pssJ), f0(pssF), ratio(pssJ, pssF), '≤ 1.15×', pssJ / pssF <= 1.15 ? 'yes' : 'NO'],
  ['idle RSS MiB', f0(rssJ), f0(rssF), ratio(rssJ, rssF), '-', ''],
  ['2,000-message thread open: PSS MiB', f0(ta.total), f0(pssF), ratio(ta.total, pssF), '-', ''],
];
if (Number.isFinite(sff)) {
  // bench/floorfair: the same window linking Juncture's libraries
  summary.push(['binary size MB against the fair floor', mb(sj), mb(sff), ratio(sj, sff), '≤ 1.10×', sj / sff <= 1.1 ? 'yes' : 'NO']);
  if (tff.length) summary.push(['idle PSS MiB against the fair floor', f0(pssJ), f0(pssFF), ratio(pssJ, pssFF), '≤ 1.10×', pssJ / pssFF <= 1.1 ? 'yes' : 'NO']);
}
console.log('');
table(['figure', 'Juncture', 'floor', 'ratio', 'goal', 'goal met?'], summary, [42, 10, 8, 7, 9, 9]);
if (Number.isFinite(dist)) console.log(`frontend/dist embedded in the binary: ${(dist / 1024).toFixed(0)} KiB`);

console.log('\nIdle PSS per process, MiB (median of the rounds; RSS in brackets)');
const kinds = [
  ['app', 'app process (Go + GTK + WebKit UI side)'],
  ['web', 'WebKitWebProcess (page, JS)'],
  ['net', 'WebKitNetworkProcess'],
  ['other', 'other children'],
];
const procRows = [];
for (const [k, label] of kinds) {
  const j = perKind('juncture', k, 4);
  const f = perKind('floor', k, 4);
  if (!(j > 0) && !(f > 0)) continue;
  procRows.push({ kind: k, juncture: j, floor: f, junctureRss: perKind('juncture', k, 5), floorRss: perKind('floor', k, 5) });
}
table(
  ['process', 'Juncture', 'floor', 'diff', 'ratio'],
  procRows.map((r) => [kinds.find((k) => k[0] === r.kind)[1], `${f1(r.juncture)} (${f0(r.junctureRss)})`, `${f1(r.floor)} (${f0(r.floorRss)})`, f1(r.juncture - r.floor), ratio(r.juncture, r.floor)]),
  [42, 14, 14, 7, 7],
);
console.log(
  `long thread: PSS ${f0(tb.total)} MiB before selecting it (app ${f0(tb.app)}, web ${f0(tb.web)}), ${f0(ta.total)} MiB 8 s after (app ${f0(ta.app)}, web ${f0(ta.web)}); RSS ${f0(tb.rss)} → ${f0(ta.rss)} MiB; conversation pane pixels changed: ${opened}${opened > 20000 ? ' (opened)' : ' — NOT OPENED?'}`,
);

// Streaming.
const expect = new Map(get('expect').map((l) => [num(l[1]), num(l[2])]));
const expectMd = new Map(get('expectmd').map((l) => [num(l[1]), num(l[2])]));
const streams = {};
for (const l of get('stream')) {
  const [, mode, run, n, micros, chars, state, a0, k0, a1, k1, a2, k2] = l;
  const N = num(n);
  const secs = num(micros) / 1e6;
  const us = (t) => (t / clk) * 1e6 / N;
  const r = {
    run: num(run),
    n: N,
    secs,
    tokPerSec: N / secs,
    chars: num(chars),
    charsOk: num(chars) === (mode.startsWith('md-') ? expectMd : expect).get(N),
    state,
    appUsPerToken: us(num(a1) - num(a0)),
    webkitUsPerToken: us(num(k1) - num(k0)),
    appUsPerTokenTail: us(num(a2) - num(a0)),
    webkitUsPerTokenTail: us(num(k2) - num(k0)),
    appCpuShare: (num(a1) - num(a0)) / clk / secs,
  };
  (streams[mode] ??= []).push(r);
}
if (Object.keys(streams).length) {
  console.log('\nDesktop streaming, Go → Wails events → page handlers (Juncture only; medians over the runs)');
  const rows = [];
  for (const [mode, rs] of Object.entries(streams)) {
    const bad = rs.filter((r) => !r.charsOk || r.state !== 'done');
    const m = (k) => med(rs.map((r) => r[k]));
    rows.push([
      `${mode} (N=${rs[0].n}, ${rs.length} runs)`,
      f0(m('tokPerSec')),
      f1(m('appUsPerToken')),
      f1(m('webkitUsPerToken')),
      `${f1(m('appUsPerTokenTail'))} / ${f1(m('webkitUsPerTokenTail'))}`,
      `${(m('appCpuShare') * 100).toFixed(0)}%`,
      bad.length ? `NO (${bad.map((r) => `run ${r.run}: ${r.chars} chars, ${r.state}`).join('; ')})` : 'yes',
    ]);
  }
  table(['mode', 'tokens/s', 'app µs/tok', 'WebKit µs/tok', 'incl. 1 s after: app / WebKit', 'app CPU', 'text complete?'], rows, [33, 8, 10, 13, 29, 7, 14]);
  console.log('(app = the Juncture process: Go runtime, Wails, the GTK main thread that hands each event to WebKit; WebKit = its WebKitWebProcess + WebKitNetworkProcess children. Timed from the Return key to the title showing the run\'s terminal state.)');
}

// Markdown at 1,000 tokens/s: Juncture against the floor page, same run.
let markdown = null;
if (streams['md-juncture'] && streams['md-floor']) {
  const m = (mode, k) => med(streams[mode].map((r) => r[k]));
  const row = (label, k, goal) => {
    const j = m('md-juncture', k);
    const f = m('md-floor', k);
    return [label, f1(j), f1(f), ratio(j, f), goal, j <= Number(goal.replace(/[^0-9.]/g, '')) ? 'yes' : 'NO'];
  };
  const rows = [
    row('WebKit CPU µs per token', 'webkitUsPerToken', '≤ 100 µs'),
    row('app CPU µs per token', 'appUsPerToken', '≤ 60 µs'),
    row('WebKit incl. 1 s after', 'webkitUsPerTokenTail', '≤ 100 µs'),
    row('app incl. 1 s after', 'appUsPerTokenTail', '≤ 60 µs'),
  ];
  // What the window redrew on the screen in the answer's first 4 s (bench/xstop -area): px per s.
  const area = (mode) => med(get('area', mode).map((l) => num(l[4]) / 4).filter(Number.isFinite));
  const aj = area('md-juncture');
  const af = area('md-floor');
  if (Number.isFinite(aj) && Number.isFinite(af)) rows.push(['screen redrawn, Mpx per s', (aj / 1e6).toFixed(2), (af / 1e6).toFixed(2), ratio(aj, af), '-', '']);
  console.log('\nMarkdown with code blocks at 1,000 tokens/s (bench/mdfake.mjs, N=5000): Juncture against the floor page (bench/floorstream: one Wails event per token appended to one text node), medians');
  table(['figure', 'Juncture', 'floor', 'ratio', 'goal', 'goal met?'], rows, [26, 9, 7, 7, 9, 9]);
  markdown = Object.fromEntries(rows.map(([figure, j, f, r, goal, met]) => [figure, { juncture: j, floor: f, ratio: r, goal, met }]));
  // The floor page following its text: the same text node in a box that
  // fills the window, scrolled to its end in every frame, as Juncture's
  // list follows an answer. The floor the issue names never scrolls (its
  // text runs off the bottom of the window), so it pays nothing for what
  // scrolling costs WebKitGTK: this anchor does.
  if (streams['md-floor-follow']) {
    const af2 = area('md-floor-follow');
    const follow = [
      ['WebKit CPU µs per token', 'webkitUsPerToken'],
      ['app CPU µs per token', 'appUsPerToken'],
    ].map(([label, k]) => {
      const j = m('md-juncture', k);
      const f = m('md-floor-follow', k);
      return [label, f1(j), f1(f), ratio(j, f)];
    });
    if (Number.isFinite(aj) && Number.isFinite(af2)) follow.push(['screen redrawn, Mpx per s', (aj / 1e6).toFixed(2), (af2 / 1e6).toFixed(2), ratio(aj, af2)]);
    console.log('\nThe same, against the floor page following its text (BENCH_FLOOR_FOLLOW=box: a scrolled box, scrolled to its end each frame), medians');
    table(['figure', 'Juncture', 'following floor', 'ratio'], follow, [26, 9, 15, 7]);
    markdown.againstFollowingFloor = Object.fromEntries(follow.map(([figure, j, f, r]) => [figure, { juncture: j, floor: f, ratio: r }]));
  }
}

// Stop in the window: the page's own measure from the Esc key (painted,
// received, shown) and the runtime's share from the app's log.
const stopRows = get('stop');
let stop = null;
if (stopRows.length) {
  const col = (i) => stopRows.map((l) => num(l[i])).filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const pct = (xs, p) => (xs.length ? xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] : NaN);
  const stat = (xs) => ({ n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99), max: xs.at(-1) ?? NaN });
  const painted = stat(col(2));
  const received = stat(col(3));
  const shown = stat(col(4));
  const runtime = stat(col(5).map((us) => us / 1000));
  const escToGo = stat(col(6));
  const began = stat(col(7));
  const task = stat(col(8));
  const screen = stat(col(9));
  const key = stat(col(10));
  const never = stopRows.filter((l) => l[2] === 'never').length;
  const screenNone = stopRows.filter((l) => l[9] === 'none').length;
  stop = { painted, received, shown, runtime, escToGo, began, task, screen, key, screenNone, never, frame: 16.7 };
  const ms = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
  console.log(`\nDesktop Stop in WebKitGTK, ${received.n} trials (ms from the Esc key in the page; runtime: the Interrupt call reaching Go → the cancelled RUN_FINISHED handed to Wails)`);
  table(
    ['step', 'p50', 'p99', 'max', 'goal', 'goal met?'],
    [
      ['Esc → cancelled state painted', ms(painted.p50), ms(painted.p99), ms(painted.max), '≤ 16.7', painted.n && painted.p99 <= 16.7 && !never ? 'yes' : 'NO'],
      ['Esc → cancelled RUN_FINISHED received', ms(received.p50), ms(received.p99), ms(received.max), '-', ''],
      ['Esc → the DOM shows it (commit)', ms(shown.p50), ms(shown.p99), ms(shown.max), '-', ''],
      ['Esc → its frame begun (paint follows)', ms(began.p50), ms(began.p99), ms(began.max), '-', ''],
      ['Esc → task posted from it ran', ms(task.p50), ms(task.p99), ms(task.max), '-', ''],
      ['Esc → Interrupt call reaching Go', ms(escToGo.p50), ms(escToGo.p99), ms(escToGo.max), '-', ''],
      ["runtime's share (Go)", ms(runtime.p50), ms(runtime.p99), ms(runtime.max), '-', ''],
      ...(screen.n
        ? [
            ['Esc in X → Send on the screen (xstop)', ms(screen.p50), ms(screen.p99), ms(screen.max), '≤ 16.7', screen.p99 <= 16.7 && !screenNone ? 'yes' : 'NO'],
            ['Esc in X → the page\'s keydown', ms(key.p50), ms(key.p99), ms(key.max), '-', ''],
          ]
        : []),
    ],
    [38, 7, 7, 7, 6, 9],
  );
  if (never) console.log(`${never} trials never painted the cancelled state`);
  if (screen.n) console.log(`on the screen: ${screen.n} trials timed by bench/xstop from the key in the X server (before the page's keydown)${screenNone ? `; ${screenNone} saw no change in 3 s` : ''}`);
  // The floor of Stop on the screen: the following floor page's Stop
  // button, turned into Send by its keydown handler alone (no round trip),
  // timed by bench/xstop the same way against the same paced stream.
  const floorScreen = stat(get('floorstop').map((l) => num(l[2])).filter(Number.isFinite).sort((a, b) => a - b));
  if (floorScreen.n && screen.n) {
    stop.floorScreen = floorScreen;
    console.log(`\nStop on the screen against its floor (the floor page following its text, Esc turning its Stop button into Send in the keydown handler; ${floorScreen.n} trials), ms`);
    table(
      ['Esc in X → Send on the screen', 'p50', 'p99', 'max'],
      [
        ['Juncture', ms(screen.p50), ms(screen.p99), ms(screen.max)],
        ['the floor page', ms(floorScreen.p50), ms(floorScreen.p99), ms(floorScreen.max)],
        ['ratio', ratio(screen.p50, floorScreen.p50), ratio(screen.p99, floorScreen.p99), ''],
      ],
      [30, 7, 7, 7],
    );
  }
}

// Start-up: launch → the first key taken, against the floor app.
let startup = null;
if (get('startup').length) {
  const ms = (who, temp) => get('startup', who, temp).map((l) => num(l[4])).filter(Number.isFinite);
  startup = {};
  const rows = [];
  for (const temp of ['cold', 'warm']) {
    const j = ms('juncture', temp);
    const f = ms('floor', temp);
    const mj = med(j);
    const mf = med(f);
    startup[temp] = { juncture: j, floor: f, ratio: mj / mf };
    rows.push([`launch → first key taken, ${temp}`, f0(mj), f0(mf), ratio(mj, mf), '≤ 1.20×', mj / mf <= 1.2 ? 'yes' : 'NO']);
    const win = (who) => med(get('startup', who, temp).map((l) => num(l[5])).filter(Number.isFinite));
    rows.push([`launch → window shown, ${temp}`, f0(win('juncture')), f0(win('floor')), ratio(win('juncture'), win('floor')), '-', '']);
  }
  console.log('\nStart-up (ms, medians; Juncture with 5 MCP servers and the 2,000-message thread opened by its link; cold: fresh folders, binary and WebKit evicted from the page cache)');
  table(['figure', 'Juncture', 'floor', 'ratio', 'goal', 'goal met?'], rows, [34, 9, 7, 7, 8, 9]);
}

mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      rows: summary.map(([figure, juncture, floor, r, goal, met]) => ({ figure, juncture, floor, ratio: r, goal, met })),
      binary: { juncture: sj, floor: sf, floorfair: sff, distBytes: dist },
      idle: { juncture: tj, floor: tf, floorfair: tff, perProcess: procRows },
      longThread: { before: tb, after: ta, changedPixels: opened },
      streams,
      markdown,
      stop,
      startup,
    },
    null,
    2,
  ),
);
console.log(`wrote ${out}`);
