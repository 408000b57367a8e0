// The soak's report (scripts/bench-soak.sh): reads the app's log, prints
// every sample ("bench soak sample", main_soak.go) and the verdict — PSS of
// the app and of its WebKit processes at the end against turn 50 (≤ 1.10),
// goroutines, open fds and child processes no higher at the end than at
// turn 50 — and writes the figures as JSON.
//
//   node bench/soak-report.mjs APP_LOG OUT_JSON [--secs N] [--load TEXT]
// Exits 1 when a goal is missed or the log has no samples.
import { readFileSync, writeFileSync } from 'node:fs';

const [logPath, outPath, ...rest] = process.argv.slice(2);
const opt = (name) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : undefined;
};

/** The samples and the failed turns' notes in an app log (slog text lines). */
export function parseSoakLog(text) {
  const samples = [];
  const notes = [];
  for (const line of text.split('\n')) {
    if (line.includes('msg="bench soak sample"')) {
      const turn = Number(/ turn=(\d+)/.exec(line)?.[1]);
      const secs = Number(/ secs=(\d+)/.exec(line)?.[1]);
      const f = {};
      for (const [, k, v] of (/sample="([^"]*)"/.exec(line)?.[1] ?? '').matchAll(/(\w+)=(\S*)/g)) f[k] = v;
      const n = (k) => Number(f[k] ?? NaN);
      samples.push({
        turn, secs, goroutines: n('goroutines'), heapKiB: n('heap_kib'), appPss: n('app_pss'), webPss: n('web_pss'),
        otherPss: n('other_pss'), appFds: n('app_fds'), kidFds: n('kid_fds'), kids: n('kids'), kidList: f.kid_list ?? '',
      });
    } else if (line.includes('msg="bench soak turn"')) {
      notes.push({ turn: Number(/ turn=(-?\d+)/.exec(line)?.[1]), note: /note="((?:[^"\\]|\\.)*)"|note=(\S+)/.exec(line)?.slice(1).find(Boolean) ?? '' });
    }
  }
  return { samples, notes };
}

/** The verdict rows: the sample at turn 50 (or the first after it) against the last. */
export function verdict(samples) {
  const base = samples.find((s) => s.turn >= 50) ?? samples[0];
  const end = samples[samples.length - 1];
  if (!base || !end) return [];
  const ratio = (k) => ({ k, base: base[k], end: end[k], ratio: end[k] / base[k], ok: end[k] / base[k] <= 1.1 });
  const noMore = (k) => ({ k, base: base[k], end: end[k], ratio: end[k] - base[k], ok: end[k] <= base[k] });
  return [ratio('appPss'), ratio('webPss'), noMore('goroutines'), noMore('appFds'), noMore('kidFds'), noMore('kids')];
}

const LABEL = {
  appPss: 'app PSS (KiB)', webPss: 'WebKit PSS (KiB)', goroutines: 'goroutines', appFds: 'app fds',
  kidFds: 'child processes’ fds', kids: 'child processes',
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { samples, notes } = parseSoakLog(readFileSync(logPath, 'utf8'));
  if (!samples.length) {
    console.log('no soak samples in the log');
    process.exit(1);
  }
  const mib = (k) => (k / 1024).toFixed(1);
  console.log('\n| turn | s | app PSS MiB | WebKit PSS MiB | other PSS MiB | Go heap MiB | goroutines | app fds | child fds | children |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of samples) {
    console.log(`| ${s.turn} | ${s.secs} | ${mib(s.appPss)} | ${mib(s.webPss)} | ${mib(s.otherPss)} | ${mib(s.heapKiB)} | ${s.goroutines} | ${s.appFds} | ${s.kidFds} | ${s.kids} |`);
  }
  const rows = verdict(samples);
  const end = samples[samples.length - 1];
  const base = samples.find((s) => s.turn >= 50) ?? samples[0];
  console.log(`\nSoak verdict: turn ${base.turn} against turn ${end.turn}${opt('secs') ? `, ${opt('secs')} s` : ''}${opt('load') ? `, ${opt('load')}` : ''}`);
  console.log('| figure | at turn ' + base.turn + ' | at the end | end / start (memory) or growth | goal | met? |');
  console.log('|---|---:|---:|---:|---|---|');
  for (const r of rows) {
    const mem = r.k.endsWith('Pss');
    console.log(`| ${LABEL[r.k]} | ${r.base} | ${r.end} | ${mem ? r.ratio.toFixed(3) : (r.ratio > 0 ? '+' : '') + r.ratio} | ${mem ? '≤ 1.10' : 'no growth'} | ${r.ok ? 'yes' : 'NO'} |`);
  }
  console.log(`children at the end: ${end.kidList}`);
  console.log(`turns that went wrong: ${notes.length}${notes.length ? ` (first: turn ${notes[0].turn}: ${notes[0].note})` : ''}`);
  writeFileSync(outPath, JSON.stringify({ secs: Number(opt('secs')), load: opt('load'), samples, notes, verdict: rows }, null, 2));
  process.exit(rows.every((r) => r.ok) ? 0 : 1);
}
