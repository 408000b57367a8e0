// Process helpers shared by the browser tests (e2e/harness.mjs) and the
// TanStack interop test (interop/server.mjs): start the real binaries on
// free loopback ports, wait until they answer, stop them cleanly.
// Node built-ins only, so interop/ needs no browser packages.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

// freePort asks the kernel for an unused loopback port.
export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

// waitFor polls url until it answers below HTTP 500.
export async function waitFor(url, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch { /* not up yet */ }
    if (Date.now() > end) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// start runs cmd with env added to the environment; its output is kept in p.log.
export function start(cmd, args, env, name) {
  const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  p.log = '';
  p.stdout.on('data', (d) => { p.log += d; });
  p.stderr.on('data', (d) => { p.log += d; });
  p.name = name;
  return p;
}

// stop sends SIGTERM, waits up to 5 s, then SIGKILL.
export async function stop(p) {
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  const done = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
  if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
}
