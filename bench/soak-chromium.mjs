// The soak's page driver (frontend/src/lib/benchSoak.ts) in Chromium, to
// see what the page holds as the turns go by: the same turns as
// scripts/bench-soak.sh plays in the desktop window, against juncture-web
// (browser mode) with the same MCP server, the binding played by this
// script. Every 10 turns, after a forced collection, it prints Chromium's
// own counts (JS heap, DOM nodes, documents, event listeners) and the
// page's facts. Development only (not in make bench): the desktop soak is
// the measure; this says what grows in the page when it does.
//
//   (build juncture-web and fakellm as e2e does) node bench/soak-chromium.mjs [TURNS]
import { resolve } from 'node:path';
import { launch } from '../e2e/harness.mjs';

const turns = Number(process.argv[2] ?? 100);
const root = resolve(import.meta.dirname, '..');
const everything = `${root}/agent/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
process.env.JUNCTURE_BENCH = '1';
const app = await launch({ open: false, mcp: { mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } } });
const { page } = app;
let next = 0;
let facts = '';
let done;
const finished = new Promise((r) => (done = r));
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
const metrics = async () => {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics: m } = await cdp.send('Performance.getMetrics');
  const get = (k) => m.find((x) => x.name === k)?.value ?? NaN;
  return `jsheap ${(get('JSHeapUsedSize') / 2 ** 20).toFixed(1)} MiB, nodes ${get('Nodes')}, documents ${get('Documents')}, listeners ${get('JSEventListeners')}, frames ${get('Frames')}`;
};
await page.exposeFunction('__soakStep', async (finishedTurn, note) => {
  if (note) console.log(`turn ${finishedTurn}: ${note}`);
  if (finishedTurn >= 0 && finishedTurn + 1 > next) {
    next = finishedTurn + 1;
    if (next % 10 === 0) console.log(`turn ${next}: ${await metrics()}; page: ${facts}`);
    if (next >= turns) done();
  }
  return { turn: next, total: turns };
});
await page.exposeFunction('__soakPage', (f) => {
  facts = f;
});
await page.addInitScript(() => {
  window.go = { main: { BenchSoak: { Step: (f, n) => window.__soakStep(f, n), Page: (f) => window.__soakPage(f) } } };
});
const t0 = Date.now();
await app.open();
console.log(`turn 0: ${await metrics()}`);
await finished;
console.log(`${turns} turns in ${((Date.now() - t0) / 1000).toFixed(0)} s; page errors: ${app.consoleErrors.length}`);
await app.close();
