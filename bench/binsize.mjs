#!/usr/bin/env node
// Where the desktop binary's bytes go, against the floor app: ELF sections
// and symbol bytes summed per Go package (text, rodata and data; bss takes
// no room in the file and is left out).
//
//   node bench/binsize.mjs JUNCTURE_UNSTRIPPED FLOOR_UNSTRIPPED [--top 30] [--json OUT]
//
// Both binaries must be built with symbols (no -ldflags "-w -s") and the same
// tags; scripts/bench-desktop.sh does so when BENCH_BINSIZE=1. .gopclntab (the
// pc tables, kept in stripped binaries) grows with .text, so the per-package
// text figures stand for roughly twice their size in the file.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const top = Number(opt('--top', '30'));
const jsonOut = opt('--json', '');
const [jBin, fBin] = args;
if (!jBin || !fBin) {
  console.error('usage: binsize.mjs JUNCTURE_BIN FLOOR_BIN [--top N] [--json OUT]');
  process.exit(2);
}

function sections(bin) {
  const out = execFileSync('readelf', ['-SW', bin], { encoding: 'utf8' });
  const m = new Map();
  for (const line of out.split('\n')) {
    const r = /\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)/.exec(line);
    if (r) m.set(r[1], { addr: parseInt(r[3], 16), size: parseInt(r[4], 16), nobits: r[2] === 'NOBITS' });
  }
  return m;
}

// pkg of a Go symbol: up to the first '.' after the last '/', before any
// generic '[' or method '('.
function pkgOf(name) {
  if (name.startsWith('type:')) return 'type:* (type descriptors)';
  if (name.startsWith('go:')) return 'go:* (closures, strings)';
  const s = name.replace(/[[(].*$/, '');
  const slash = s.lastIndexOf('/');
  const dot = s.indexOf('.', slash + 1);
  return dot < 0 ? s : s.slice(0, dot);
}

function perPackage(bin) {
  const secs = sections(bin);
  const bssRanges = [...secs.values()].filter((s) => s.nobits).map((s) => [s.addr, s.addr + s.size]);
  const out = execFileSync('go', ['tool', 'nm', '-size', bin], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const sum = new Map();
  for (const line of out.split('\n')) {
    const r = /^\s*([0-9a-f]+)\s+(\d+)\s+(\S)\s+(.+)$/.exec(line);
    if (!r) continue;
    const addr = parseInt(r[1], 16);
    if (r[3] === 'U' || bssRanges.some(([a, b]) => addr >= a && addr < b)) continue;
    const p = pkgOf(r[4]);
    sum.set(p, (sum.get(p) ?? 0) + Number(r[2]));
  }
  return { secs, sum };
}

const J = perPackage(jBin);
const F = perPackage(fBin);
const kb = (n) => (n / 1024).toFixed(0);
const pad = (s, w) => String(s).padEnd(w);
const padl = (s, w) => String(s).padStart(w);

console.log('\nELF sections in the file (KiB)');
console.log(`| ${pad('section', 14)} | ${padl('Juncture', 9)} | ${padl('floor', 9)} | ${padl('diff', 9)} |`);
let tj = 0;
let tf = 0;
for (const name of ['.text', '.rodata', '.gopclntab', '.noptrdata', '.data', '.typelink', '.itablink']) {
  const a = J.secs.get(name)?.size ?? 0;
  const b = F.secs.get(name)?.size ?? 0;
  tj += a;
  tf += b;
  console.log(`| ${pad(name, 14)} | ${padl(kb(a), 9)} | ${padl(kb(b), 9)} | ${padl(kb(a - b), 9)} |`);
}
console.log(`| ${pad('sum', 14)} | ${padl(kb(tj), 9)} | ${padl(kb(tf), 9)} | ${padl(kb(tj - tf), 9)} |`);

const keys = new Set([...J.sum.keys(), ...F.sum.keys()]);
const rows = [...keys].map((k) => ({ pkg: k, juncture: J.sum.get(k) ?? 0, floor: F.sum.get(k) ?? 0 }));
for (const r of rows) r.diff = r.juncture - r.floor;
rows.sort((a, b) => b.diff - a.diff);
const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
console.log(`\nSymbol bytes per package, largest growth over the floor first (KiB; all packages: Juncture ${kb(total(J.sum))}, floor ${kb(total(F.sum))})`);
console.log(`| ${pad('package', 58)} | ${padl('Juncture', 9)} | ${padl('floor', 9)} | ${padl('diff', 9)} |`);
for (const r of rows.slice(0, top)) {
  console.log(`| ${pad(r.pkg.slice(0, 58), 58)} | ${padl(kb(r.juncture), 9)} | ${padl(kb(r.floor), 9)} | ${padl(kb(r.diff), 9)} |`);
}
// Group by module-ish prefix too: the first three path elements.
const group = new Map();
for (const r of rows) {
  const g = r.pkg.includes('/') ? r.pkg.split('/').slice(0, r.pkg.startsWith('github.com/juncture-app') ? 3 : 3).join('/') : r.pkg.includes(':') ? r.pkg : 'std';
  const v = group.get(g) ?? { juncture: 0, floor: 0 };
  v.juncture += r.juncture;
  v.floor += r.floor;
  group.set(g, v);
}
const grows = [...group].map(([g, v]) => ({ group: g, ...v, diff: v.juncture - v.floor })).sort((a, b) => b.diff - a.diff);
console.log('\nPer module (first three path elements; std = the standard library)');
console.log(`| ${pad('module', 40)} | ${padl('Juncture', 9)} | ${padl('floor', 9)} | ${padl('diff', 9)} |`);
for (const r of grows.filter((r) => Math.abs(r.diff) >= 20 * 1024)) {
  console.log(`| ${pad(r.group, 40)} | ${padl(kb(r.juncture), 9)} | ${padl(kb(r.floor), 9)} | ${padl(kb(r.diff), 9)} |`);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ packages: rows, modules: grows }, null, 2));
