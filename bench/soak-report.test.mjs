// The soak report's verdict (bench/soak-report.mjs) on synthetic app logs:
// a flat run passes, a ±1 wobble of the counts passes, one GC spike in
// memory or fds decides nothing, a steady leak fails, a slow leak whose
// last samples dip fails on its trend, memory growth past 1.10 fails, and
// the command prints every figure with its verdict and exits 1 on a miss.
//   node --test bench/
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { formatReport, median, parseSoakLog, partsTable, theilSen, verdict, webTurns, windows } from './soak-report.mjs';

const script = fileURLToPath(new URL('./soak-report.mjs', import.meta.url));

const FLAT = { goroutines: 24, appPss: 110_000, webPss: 200_000, appAnon: 60_000, webAnon: 150_000, appFds: 45, kidFds: 64, kids: 3 };

/** An app log with a sample every 10 turns up to turns; at(turn) overrides FLAT's figures. */
function soakLog(turns, at = () => ({}), notes = []) {
  const lines = [];
  for (let turn = 0; turn <= turns; turn += 10) {
    const f = { ...FLAT, ...at(turn) };
    const kidList = Array.from({ length: f.kids }, (_, i) => `${100 + i}:kid${i}`).join(',');
    lines.push(
      `time=2026-12-02T14:39:38.341Z level=INFO msg="bench soak sample" turn=${turn} secs=${turn * 4} sample="goroutines=${f.goroutines} heap_kib=4000 app_pss=${f.appPss} web_pss=${f.webPss} other_pss=33000 app_anon=${f.appAnon} web_anon=${f.webAnon} app_fds=${f.appFds} kid_fds=${f.kidFds} kids=${f.kids} kid_list=${kidList}" page="dom=${900 + turn} titems=${turn / 10}"`,
    );
  }
  for (const [turn, note] of notes) lines.push(`time=2026-12-02T14:40:00Z level=WARN msg="bench soak turn" turn=${turn} note="${note}"`);
  return lines.join('\n') + '\n';
}

function judge(text, turns = 500) {
  const { samples, notes } = parseSoakLog(text);
  return Object.fromEntries(verdict(samples, notes, turns).map((r) => [r.k, r]));
}

const failing = (rows) => Object.values(rows).filter((r) => !r.ok).map((r) => r.k).sort();

test('median and Theil–Sen slope', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 2, 3]), 2.5);
  assert.equal(theilSen([[0, 1], [10, 2], [20, 3]]), 0.1);
  assert.equal(theilSen([[0, 5], [10, 5], [20, 50], [30, 5], [40, 5]]), 0, 'a lone spike moves no slope');
  assert.equal(theilSen([[0, 5]]), 0);
});

test('windows: turn 50 on, five samples at the start and five at the end; fewer in a short run', () => {
  const { samples } = parseSoakLog(soakLog(500));
  const w = windows(samples);
  assert.deepEqual(w.base.map((s) => s.turn), [50, 60, 70, 80, 90]);
  assert.deepEqual(w.end.map((s) => s.turn), [460, 470, 480, 490, 500]);
  const short = windows(parseSoakLog(soakLog(100)).samples);
  assert.deepEqual(short.base.map((s) => s.turn), [50, 60]);
  assert.deepEqual(short.end.map((s) => s.turn), [90, 100]);
  const tiny = windows(parseSoakLog(soakLog(30)).samples); // shorter than 50 turns: from the first sample
  assert.deepEqual(tiny.base.map((s) => s.turn), [0, 10]);
});

test('a flat run passes every figure', () => {
  const rows = judge(soakLog(500));
  assert.deepEqual(failing(rows), []);
  assert.equal(rows.appPss.value, 1);
  assert.equal(rows.goroutines.value, 0);
});

test('a ±1 wobble of goroutines, fds and children passes', () => {
  const wob = (turn) => ((turn / 10) % 3) - 1; // -1, 0, +1, …
  const rows = judge(soakLog(500, (turn) => ({
    goroutines: FLAT.goroutines + wob(turn), appFds: FLAT.appFds - wob(turn), kidFds: FLAT.kidFds + wob(turn + 10),
    kids: FLAT.kids + (turn === 500 ? 1 : 0), // a command still running at the last sample
  })));
  assert.deepEqual(failing(rows), []);
});

test('the same wobble ending on its high sample passed strictly would have failed', () => {
  // The old verdict compared the turn-50 sample with the last one: 23 → 25.
  const rows = judge(soakLog(500, (turn) => ({ goroutines: turn === 50 ? 23 : turn === 500 ? 25 : 24 })));
  assert.deepEqual(failing(rows), []);
});

test('a steady leak of one goroutine, fd and child every 50 turns fails each', () => {
  const leak = (turn) => Math.floor(turn / 50);
  const rows = judge(soakLog(500, (turn) => ({
    goroutines: FLAT.goroutines + leak(turn), appFds: FLAT.appFds + leak(turn), kids: FLAT.kids + leak(turn), kidFds: FLAT.kidFds + 2 * leak(turn),
  })));
  assert.deepEqual(failing(rows), ['appFds', 'goroutines', 'kidFds', 'kids']);
  assert.ok(rows.goroutines.value >= 8, `growth ${rows.goroutines.value}`);
});

test('a slow leak whose last samples dip back fails on its trend', () => {
  // +1 fd every 100 turns (+4 from turn 50 to 450), then back to +2 for the last five samples.
  const rows = judge(soakLog(500, (turn) => ({ appFds: FLAT.appFds + (turn >= 460 ? 2 : Math.floor(turn / 100)) })));
  assert.equal(rows.appFds.value, 2, 'the end level alone is within tolerance');
  assert.ok(rows.appFds.trend > 2, `trend ${rows.appFds.trend}`);
  assert.deepEqual(failing(rows), ['appFds']);
});

test('a single spike in memory or fds decides nothing, at turn 50 or at the end', () => {
  for (const spikeAt of [50, 250, 500]) {
    const rows = judge(soakLog(500, (turn) => (turn === spikeAt ? { appPss: FLAT.appPss * 1.5, webPss: FLAT.webPss * 0.6, appFds: FLAT.appFds + 30 } : {})));
    assert.deepEqual(failing(rows), [], `spike at turn ${spikeAt}`);
  }
});

test('memory growing past 1.10 after turn 50 fails, app and WebKit apart', () => {
  // The app grows 20% from turn 50 to the end (as the replay ring filled); WebKit 7%.
  const grow = (turn, by) => 1 + (by * Math.max(0, turn - 50)) / 450;
  const rows = judge(soakLog(500, (turn) => ({ appPss: Math.round(FLAT.appPss * grow(turn, 0.2)), webPss: Math.round(FLAT.webPss * grow(turn, 0.07)) })));
  assert.deepEqual(failing(rows), ['appPss']);
  assert.ok(rows.appPss.value > 1.15 && rows.appPss.value < 1.2, `app ${rows.appPss.value}`);
  assert.ok(rows.webPss.value > 1.04 && rows.webPss.value <= 1.07, `WebKit ${rows.webPss.value}`);
});

test('PSS and its part not of files are judged apart: a shared library’s share moves only the first', () => {
  // Another process unmaps a library both mapped: the app's share of it grows 15%; it allocated nothing.
  const shared = judge(soakLog(500, (turn) => ({ appPss: turn >= 200 ? FLAT.appPss * 1.15 : FLAT.appPss })));
  assert.deepEqual(failing(shared), ['appPss']);
  // WebKit allocating 20% more after turn 50 fails both of its rows.
  const grow = (turn) => 1 + (0.2 * Math.max(0, turn - 50)) / 450;
  const leak = judge(soakLog(500, (turn) => ({ webPss: FLAT.webPss + (FLAT.webAnon * (grow(turn) - 1)) * 1.4, webAnon: FLAT.webAnon * grow(turn) })));
  assert.deepEqual(failing(leak), ['webAnon', 'webPss']);
});

test('a log from before the part not of files was sampled gets no row for it', () => {
  const old = soakLog(500).replace(/ app_anon=\d+ web_anon=\d+/g, '');
  assert.deepEqual(Object.keys(judge(old)).sort(), ['appFds', 'appPss', 'failed', 'goroutines', 'kidFds', 'kids', 'webPss']);
});

test('a figure some samples lack or garble is judged as missed, never dropped from the verdict', () => {
  // A leak whose end sample lost its app_pss (a line cut short, a value
  // not a number): the row was left out, and the run passed.
  const leak = soakLog(500, (turn) => ({ appPss: turn < 300 ? FLAT.appPss : FLAT.appPss * 1.5 }));
  for (const hostile of [leak.replace(/ app_pss=\d+( [^\n]*\n)$/, '$1'), leak.replace(/app_pss=(\d+)( [^\n]*\n)$/, 'app_pss=x$2')]) {
    const rows = judge(hostile);
    assert.ok(rows.appPss, 'the app PSS row is left out');
    assert.equal(rows.appPss.ok, false);
  }
});

test('a value left empty or not a plain count is garbled, never a reading of 0', () => {
  // "app_pss=" (a write cut into another) read as Number('') = 0: the leak's
  // end sample counted as a fall, and the run passed.
  const leak = soakLog(500, (turn) => ({ appPss: turn < 300 ? FLAT.appPss : FLAT.appPss * 1.5 }));
  for (const garbled of ['', 'Infinity', '0x1F', '1e9', '-']) {
    const rows = judge(leak.replace(/app_pss=(\d+)( [^\n]*\n)$/, `app_pss=${garbled}$2`));
    assert.equal(rows.appPss.ok, false, `app_pss=${garbled}`);
    assert.match(rows.appPss.goal, /1 sample\(s\) lack it/, `app_pss=${garbled}`);
  }
  // The same for the parts: an empty one is absent, not 0 MiB.
  const { samples } = parseSoakLog(soakLog(500).replace(/app_fds=/g, 'app_cheap= app_fds='));
  assert.equal(partsTable(samples).length, 0);
});

test('growth in the first 50 turns does not count', () => {
  const rows = judge(soakLog(500, (turn) => ({ appPss: turn < 50 ? 60_000 : FLAT.appPss, goroutines: turn < 50 ? 10 : FLAT.goroutines })));
  assert.deepEqual(failing(rows), []);
});

test('more than 2% of turns gone wrong fails', () => {
  const few = judge(soakLog(500, undefined, [[7, 'timeout']]));
  assert.deepEqual(failing(few), []);
  const many = judge(soakLog(500, undefined, Array.from({ length: 11 }, (_, i) => [i * 40, 'run ended: timeout'])));
  assert.deepEqual(failing(many), ['failed']);
});

test('the report prints every figure with its verdict, and the command exits 1 on a miss', () => {
  const dir = mkdtempSync(join(tmpdir(), 'soak-report-'));
  try {
    const { samples, notes } = parseSoakLog(soakLog(500));
    const text = formatReport(samples, notes, verdict(samples, notes, 500), { secs: '1234', load: 'load 2.0' });
    for (const label of ['app PSS (MiB)', 'WebKit PSS (MiB)', 'app PSS not of files (MiB)', 'WebKit PSS not of files (MiB)', 'goroutines', 'app fds', 'child processes’ fds', 'child processes', 'turns that went wrong']) {
      assert.match(text, new RegExp(`\\| ${label.replace(/[()]/g, '\\$&')} \\|.*\\| yes \\|`), label);
    }
    assert.match(text, /\| 500 \| 2000 \| 107\.4 \| .* \| 3 \| dom=1400 titems=50 \|/, 'the page\'s facts in the sample table');
    assert.match(text, /median of turns 50–90\) against the end \(median of turns 460–500\), 1234 s, load 2.0/);

    writeFileSync(join(dir, 'flat.log'), soakLog(500));
    const ok = spawnSync(process.execPath, [script, join(dir, 'flat.log'), join(dir, 'flat.json'), '--secs', '9'], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    const json = JSON.parse(readFileSync(join(dir, 'flat.json'), 'utf8'));
    assert.equal(json.samples.length, 51);
    assert.equal(json.verdict.length, 9);

    writeFileSync(join(dir, 'leak.log'), soakLog(500, (turn) => ({ goroutines: FLAT.goroutines + turn / 10 })));
    const bad = spawnSync(process.execPath, [script, join(dir, 'leak.log'), join(dir, 'leak.json')], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stdout, /\| goroutines \| 31 \| 72 \| \+10 \| \+41 \(\+45\) \| ≤ \+2, trend too \| NO \|/);

    writeFileSync(join(dir, 'empty.log'), 'no samples here\n');
    const none = spawnSync(process.execPath, [script, join(dir, 'empty.log'), join(dir, 'empty.json')], { encoding: 'utf8' });
    assert.equal(none.status, 1);
    assert.match(none.stdout, /no soak samples/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the memory not of files is split by allocator beside the verdict, and a log without the parts prints none', () => {
  // The C heap grows by 10 MiB after turn 50; the Go runtime stays.
  const parts = (turn) => `go_kib=20480 app_cheap=${30720 + (turn >= 100 ? 10240 : 0)} app_shm=1024 app_anonx=40960 app_otherx=512 web_cheap=8192 web_shm=4096 web_anonx=102400 web_otherx=256`;
  const text = soakLog(500).replace(/app_fds=/g, 'PARTS app_fds=').split('\n').map((l) => {
    const turn = Number(/ turn=(\d+)/.exec(l)?.[1]);
    return l.replace('PARTS', parts(turn));
  }).join('\n');
  const { samples, notes } = parseSoakLog(text);
  const rows = Object.fromEntries(partsTable(samples).map((r) => [r.k, r]));
  assert.equal(rows.app_cheap.base, 30720); // turns 50–90
  assert.equal(rows.app_cheap.end, 40960);
  assert.equal(rows.go_kib.end - rows.go_kib.base, 0);
  const report = formatReport(samples, notes, verdict(samples, notes, 500));
  assert.match(report, /\| app: C heap \(\[heap\]: GTK, WebKit’s UI side\) \| 30\.0 \| 40\.0 \| \+10\.0 \|/);
  assert.equal(verdict(samples, notes, 500).length, 9, 'the parts are not judged');
  const old = parseSoakLog(soakLog(500));
  assert.equal(partsTable(old.samples).length, 0);
  assert.doesNotMatch(formatReport(old.samples, old.notes, verdict(old.samples, old.notes, 500)), /Where the memory/);
});

test('WebKit every turn: its least, median and most memory not of files from turn 50, and its CPU per 100 turns', () => {
  const line = (turn, anon, cpu) => `time=t level=INFO msg="bench soak web" turn=${turn} web_pss=${anon + 50000} web_anon=${anon} web_cpu_ms=${cpu}`;
  const lines = [line(10, 900000, 1000)];
  for (let t = 50; t <= 150; t++) lines.push(line(t, 100000 + (t % 25) * 4096, 5000 + (t - 50) * 600));
  const { web } = parseSoakLog(lines.join('\n'));
  assert.equal(web.length, 102);
  const w = webTurns(web);
  assert.deepEqual({ from: w.from, to: w.to, min: w.min, max: w.max }, { from: 50, to: 150, min: 100000, max: 100000 + 24 * 4096 });
  assert.equal(w.cpuPer100, 60000);
  assert.equal(webTurns([]), null);
  const samples = [{ turn: 50, secs: 1, appPss: 1, webPss: 1, otherPss: 1, appAnon: 1, webAnon: 1, heapKiB: 1, goroutines: 1, appFds: 1, kidFds: 1, kids: 1, kidList: '' }];
  const text = formatReport(samples, [], [], { web });
  assert.match(text, /WebKit every turn, turns 50–150 \(not judged\): memory not of files least 97\.7, median [\d.]+, most 193\.7 MiB; its CPU time 60\.0 s per 100 turns/);
  assert.doesNotMatch(formatReport(samples, [], []), /WebKit every turn/);
});
