// The soak's report (scripts/bench-soak.sh): reads the app's log, prints
// every sample ("bench soak sample", main_soak.go) and the verdict, and
// writes the figures as JSON. The verdict judges what happens after the
// first BASE_TURN (50) turns, from levels rather than single samples, so
// one garbage-collection spike or a ±1 wobble decides nothing:
//   - the level at turn 50 is the median of the five samples from turn 50
//     (50–90), the level at the end the median of the last five: each
//     spans one 50-turn cycle of the driver's reloads (every 25 turns)
//     and samples (every 10), so both see the page as long after a reload
//     and the sawtooth of what WebKit has not collected yet compares like
//     with like;
//   - app PSS and WebKit PSS each: end level / turn-50 level ≤ 1.10, and
//     the same for their part that is not a mapped file (Pss_Anon +
//     Pss_Shmem: what the processes allocated), which other processes
//     mapping the same libraries do not move as they come and go;
//   - goroutines, app fds, the children's fds and child processes: the end
//     level at most COUNT_TOLERANCE (2) above the turn-50 level, and the
//     trend over the samples from turn 50 (a Theil–Sen slope: the median of
//     every pair's slope, which a lone spike does not move) times their
//     span at most COUNT_TOLERANCE too, so a slow steady leak fails even
//     if the last samples happen to dip;
//   - turns that went wrong (a timeout, a card that never came): at most
//     2% of the turns, else the run was not a day's use.
// Beside the verdict, not judged: WebKit's memory not of files every turn
// from turn 50 ("bench soak web": its least, median and most, the height
// of the sawtooth between JavaScriptCore's full collections) and the CPU
// time WebKit's processes used per 100 turns.
//
//   node bench/soak-report.mjs APP_LOG OUT_JSON [--secs N] [--load TEXT]
// Exits 1 when a goal is missed or the log has no samples.
import { readFileSync, writeFileSync } from 'node:fs';

export const BASE_TURN = 50;
export const MEMORY_GOAL = 1.1;
export const COUNT_TOLERANCE = 2;
export const FAILED_TURNS_GOAL = 0.02;
const BASE_SAMPLES = 5;
const END_SAMPLES = 5;

const MEMORY = ['appPss', 'webPss', 'appAnon', 'webAnon'];
// Where the memory not of files is (internal/benchprobe/memparts.go), KiB:
// shown beside the verdict to say which allocator a growth is in, not judged.
export const PARTS = ['go_kib', 'app_cheap', 'app_shm', 'app_anonx', 'app_otherx', 'web_cheap', 'web_shm', 'web_anonx', 'web_otherx'];
const PART_LABEL = {
  go_kib: 'app: the Go runtime (Sys − released)', app_cheap: 'app: C heap ([heap]: GTK, WebKit’s UI side)', app_shm: 'app: shared memory (WebKit’s bitmaps)',
  app_anonx: 'app: other anonymous (Go, SQLite, C arenas)', app_otherx: 'app: stacks, written file pages', web_cheap: 'WebKit: C heap ([heap])',
  web_shm: 'WebKit: shared memory', web_anonx: 'WebKit: other anonymous (JavaScriptCore, C arenas)', web_otherx: 'WebKit: stacks, written file pages',
};

/** The parts' levels at turn 50 and at the end (medians, MiB), for the samples that have them. */
export function partsTable(samples) {
  const { base, end } = windows(samples);
  const rows = [];
  for (const k of PARTS) {
    const has = (s) => Number.isFinite(s.parts?.[k]);
    if (!base.some(has) || !end.some(has)) continue;
    const b = median(base.filter(has).map((s) => s.parts[k]));
    const e = median(end.filter(has).map((s) => s.parts[k]));
    rows.push({ k, label: PART_LABEL[k], base: b, end: e });
  }
  return rows;
}
const COUNTS = ['goroutines', 'appFds', 'kidFds', 'kids'];

/** The samples and the failed turns' notes in an app log (slog text lines). */
export function parseSoakLog(text) {
  const samples = [];
  const notes = [];
  const web = [];
  for (const line of text.split('\n')) {
    if (line.includes('msg="bench soak web"')) {
      const n = (k) => Number(new RegExp(` ${k}=(\\d+)`).exec(line)?.[1] ?? NaN);
      web.push({ turn: n('turn'), pss: n('web_pss'), anon: n('web_anon'), cpuMs: n('web_cpu_ms') });
    } else if (line.includes('msg="bench soak sample"')) {
      const turn = Number(/ turn=(\d+)/.exec(line)?.[1]);
      const secs = Number(/ secs=(\d+)/.exec(line)?.[1]);
      const f = {};
      for (const [, k, v] of (/sample="([^"]*)"/.exec(line)?.[1] ?? '').matchAll(/(\w+)=(\S*)/g)) f[k] = v;
      // Every figure is a count the app prints with %d: anything else (an
      // empty value, which Number reads as 0, Infinity, 0x1F) is garbled.
      const n = (k) => (/^-?\d+$/.test(f[k] ?? '') ? Number(f[k]) : NaN);
      samples.push({
        turn, secs, goroutines: n('goroutines'), heapKiB: n('heap_kib'), appPss: n('app_pss'), webPss: n('web_pss'),
        otherPss: n('other_pss'), appAnon: n('app_anon'), webAnon: n('web_anon'), appFds: n('app_fds'), kidFds: n('kid_fds'), kids: n('kids'), kidList: f.kid_list ?? '',
        parts: Object.fromEntries(PARTS.map((k) => [k, n(k)])),
        page: / page="([^"]*)"/.exec(line)?.[1] ?? '',
      });
    } else if (line.includes('msg="bench soak turn"')) {
      notes.push({ turn: Number(/ turn=(-?\d+)/.exec(line)?.[1]), note: /note="((?:[^"\\]|\\.)*)"|note=(\S+)/.exec(line)?.slice(1).find(Boolean) ?? '' });
    }
  }
  return { samples, notes, web };
}

/**
 * WebKit every turn from BASE_TURN (all turns when the run is shorter):
 * the least, median and most of its memory not of files (KiB) and its CPU
 * time per 100 turns (ms; WebKit's processes are the same ones throughout,
 * so the difference of their totals); null without per-turn lines.
 */
export function webTurns(web) {
  const ok = web.filter((w) => Number.isFinite(w.turn) && Number.isFinite(w.anon));
  if (!ok.length) return null;
  const after = ok.some((w) => w.turn >= BASE_TURN) ? ok.filter((w) => w.turn >= BASE_TURN) : ok;
  const anon = after.map((w) => w.anon);
  const first = after[0];
  const last = after[after.length - 1];
  const span = last.turn - first.turn;
  const cpuPer100 = span > 0 && Number.isFinite(first.cpuMs) && Number.isFinite(last.cpuMs) ? ((last.cpuMs - first.cpuMs) * 100) / span : NaN;
  return { from: first.turn, to: last.turn, min: Math.min(...anon), median: median(anon), max: Math.max(...anon), cpuPer100 };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The Theil–Sen slope of points [x, y]: the median of every pair's slope (0 for fewer than two x). */
export function theilSen(points) {
  const slopes = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j][0] - points[i][0];
      if (dx !== 0) slopes.push((points[j][1] - points[i][1]) / dx);
    }
  }
  return slopes.length ? median(slopes) : 0;
}

/**
 * The windows the verdict reads: the samples from BASE_TURN on (all of them
 * when the run is shorter), the first few of those (the level at turn 50)
 * and the last few (the level at the end); a short run uses fewer of each.
 */
export function windows(samples) {
  const sorted = [...samples].sort((a, b) => a.turn - b.turn);
  const after = sorted.some((s) => s.turn >= BASE_TURN) ? sorted.filter((s) => s.turn >= BASE_TURN) : sorted;
  const third = Math.max(1, Math.ceil(after.length / 3));
  return { after, base: after.slice(0, Math.min(BASE_SAMPLES, third)), end: after.slice(-Math.min(END_SAMPLES, third)) };
}

/**
 * The verdict rows, one per figure: its level at turn 50 and at the end,
 * the trend from turn 50 (per 100 turns), the figure judged (the ratio for
 * memory, the growth for counts), its goal and whether it is met. With
 * turns (the turns played) the failed-turns row is added.
 */
export function verdict(samples, notes = [], turns = undefined) {
  const { after, base, end } = windows(samples);
  if (!after.length) return [];
  const span = after[after.length - 1].turn - after[0].turn;
  const rows = [];
  for (const k of [...MEMORY, ...COUNTS]) {
    const has = (s) => !Number.isNaN(s[k]);
    const missing = after.filter((s) => !has(s)).length;
    if (missing === after.length) continue; // a log from before the figure was sampled
    // Some samples without it (a line cut short, a value not a number): the
    // figure is judged missed, so a garbled end sample cannot hide a leak.
    const whole = missing === 0;
    const lacks = whole ? '' : `; ${missing} sample(s) lack it`;
    const b = median(base.filter(has).map((s) => s[k]));
    const e = median(end.filter(has).map((s) => s[k]));
    const slope = theilSen(after.filter(has).map((s) => [s.turn, s[k]]));
    if (MEMORY.includes(k)) {
      const ratio = e / b;
      rows.push({ k, base: b, end: e, per100: slope * 100, value: ratio, goal: `≤ ${MEMORY_GOAL.toFixed(2)}${lacks}`, ok: whole && ratio <= MEMORY_GOAL });
    } else {
      const growth = e - b;
      const trend = slope * span;
      rows.push({
        k, base: b, end: e, per100: slope * 100, value: growth, trend, goal: `≤ +${COUNT_TOLERANCE}, trend too${lacks}`,
        ok: whole && growth <= COUNT_TOLERANCE && trend <= COUNT_TOLERANCE,
      });
    }
  }
  if (turns !== undefined) {
    const failed = notes.filter((n) => n.turn >= 0).length;
    rows.push({ k: 'failed', base: 0, end: failed, per100: NaN, value: failed / Math.max(1, turns), goal: `≤ ${FAILED_TURNS_GOAL * 100}%`, ok: failed <= FAILED_TURNS_GOAL * turns });
  }
  return rows;
}

export const LABEL = {
  appPss: 'app PSS (MiB)', webPss: 'WebKit PSS (MiB)', appAnon: 'app PSS not of files (MiB)', webAnon: 'WebKit PSS not of files (MiB)', goroutines: 'goroutines', appFds: 'app fds',
  kidFds: 'child processes’ fds', kids: 'child processes', failed: 'turns that went wrong',
};

/** The report's text: every sample, then the verdict table with each figure and its verdict. */
export function formatReport(samples, notes, rows, { secs, load, web } = {}) {
  const mib = (k) => (k / 1024).toFixed(1);
  const out = [];
  out.push('', '| turn | s | app PSS MiB | WebKit PSS MiB | other PSS MiB | app not files | WebKit not files | Go heap MiB | goroutines | app fds | child fds | children | page |');
  out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const s of samples) {
    out.push(`| ${s.turn} | ${s.secs} | ${mib(s.appPss)} | ${mib(s.webPss)} | ${mib(s.otherPss)} | ${mib(s.appAnon)} | ${mib(s.webAnon)} | ${mib(s.heapKiB)} | ${s.goroutines} | ${s.appFds} | ${s.kidFds} | ${s.kids} | ${s.page ?? ''} |`);
  }
  const { base, end } = windows(samples);
  const turns = (w) => (w.length > 1 ? `${w[0].turn}–${w[w.length - 1].turn}` : `${w[0].turn}`);
  out.push('', `Soak verdict: the level at turn ${base[0].turn} (median of turns ${turns(base)}) against the end (median of turns ${turns(end)})${secs ? `, ${secs} s` : ''}${load ? `, ${load}` : ''}`);
  out.push(`| figure | at turn ${base[0].turn} | at the end | trend per 100 turns | end / turn ${base[0].turn}, or growth (trend) | goal | met? |`);
  out.push('|---|---:|---:|---:|---:|---|---|');
  for (const r of rows) {
    const mem = MEMORY.includes(r.k);
    const level = (v) => (mem ? mib(v) : String(v));
    const sign = (v) => (v > 0 ? '+' : '') + (Number.isInteger(v) ? v : v.toFixed(1));
    let value;
    if (mem) value = r.value.toFixed(3);
    else if (r.k === 'failed') value = `${(r.value * 100).toFixed(1)}%`;
    else value = `${sign(r.value)} (${sign(r.trend)})`;
    const per100 = Number.isNaN(r.per100) ? '' : mem ? `${sign(r.per100 / 1024)} MiB` : sign(r.per100);
    out.push(`| ${LABEL[r.k]} | ${level(r.base)} | ${level(r.end)} | ${per100} | ${value} | ${r.goal} | ${r.ok ? 'yes' : 'NO'} |`);
  }
  const parts = partsTable(samples);
  if (parts.length) {
    out.push('', 'Where the memory not of files is (not judged; MiB, the same medians):', '| part | at turn ' + base[0].turn + ' | at the end | growth |', '|---|---:|---:|---:|');
    for (const p of parts) out.push(`| ${p.label} | ${mib(p.base)} | ${mib(p.end)} | ${(p.end - p.base >= 0 ? '+' : '') + mib(p.end - p.base)} |`);
  }
  const w = web ? webTurns(web) : null;
  if (w) {
    const cpu = Number.isNaN(w.cpuPer100) ? '' : `; its CPU time ${(w.cpuPer100 / 1000).toFixed(1)} s per 100 turns`;
    out.push('', `WebKit every turn, turns ${w.from}–${w.to} (not judged): memory not of files least ${mib(w.min)}, median ${mib(w.median)}, most ${mib(w.max)} MiB${cpu}`);
  }
  out.push(`children at the end: ${samples[samples.length - 1].kidList}`);
  out.push(`turns that went wrong: ${notes.length}${notes.length ? ` (first: turn ${notes[0].turn}: ${notes[0].note})` : ''}`);
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [logPath, outPath, ...rest] = process.argv.slice(2);
  const opt = (name) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const { samples, notes, web } = parseSoakLog(readFileSync(logPath, 'utf8'));
  if (!samples.length) {
    console.log('no soak samples in the log');
    process.exit(1);
  }
  const turns = Math.max(...samples.map((s) => s.turn));
  const rows = verdict(samples, notes, turns);
  console.log(formatReport(samples, notes, rows, { secs: opt('secs'), load: opt('load'), web }));
  if (outPath) writeFileSync(outPath, JSON.stringify({ secs: Number(opt('secs')), load: opt('load'), samples, notes, verdict: rows, webTurns: webTurns(web), web }, null, 2));
  process.exit(rows.every((r) => r.ok) ? 0 : 1);
}
