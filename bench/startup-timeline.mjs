// Start-up timeline of one Juncture launch (scripts/bench-desktop.sh's
// start-up part, JUNCTURE_BENCH=1): from the app's log, ms from the launch
// to each stage the Go side logged ("bench startup" stage=…, the store
// opening, the MCP servers' changes) and to each of the page's marks
// (frontend/src/lib/startupMarks.ts, the title's eighth field, read once
// more a second after the first key, in LOG.title). Usage: node startup-timeline.mjs LOG
import { readFileSync } from 'node:fs';

const lines = readFileSync(process.argv[2], 'utf8').split('\n');
let title;
try {
  title = readFileSync(`${process.argv[2]}.title`, 'utf8'); // scripts/bench-desktop.sh's startup_one
} catch {
  process.exit(0); // no key taken: nothing to place
}
const launch = Number(/launch_ms=(\d+)/.exec(title)[1]);
const at = [];
const timeOf = (l) => Date.parse(/^time=(\S+)/.exec(l)?.[1] ?? '');
let mcp = 0;
for (const l of lines) {
  const stage = /msg="bench startup" stage=(\S+) epoch_ms=(\d+)/.exec(l);
  if (stage) at.push([`go:${stage[1]}`, Number(stage[2])]);
  else if (/msg="store ready"/.test(l)) at.push(['go:store', timeOf(l)]);
  else if (/msg="bench mcp"/.test(l)) at.push([`go:mcp${++mcp}`, Number(/epoch_ms=(\d+)/.exec(l)[1])]);
}
const marks = title.trim().split(' ').pop();
const page = Object.fromEntries(marks.split(',').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
if (page.t0) {
  at.push(['page:nav', page.t0]);
  for (const [k, v] of Object.entries(page)) if (k !== 't0') at.push([`page:${k}`, page.t0 + v]);
}
at.sort((a, b) => a[1] - b[1]);
// read_bytes: what the app process had read from disk by the first key (scripts/bench-desktop.sh, /proc/PID/io)
const read = /read_bytes=(\d+)/.exec(title);
const io = read ? ` · read by the first key ${(Number(read[1]) / 2 ** 20).toFixed(1)} MiB` : '';
console.log(`    timeline (ms from launch): ${at.map(([k, t]) => `${k} ${t - launch}`).join(' · ')}${io}`);
