// What the MCP stories share: the real @modelcontextprotocol/server-everything,
// waiting for a server to be ready, and a fresh chat.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** server-everything's entry point (installed by npm ci in agent/mcp/testdata/servers). */
export const everythingJs = resolve(import.meta.dirname,
  '../agent/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** server-everything as a stdio server of mcp.json. */
export const everything = { command: process.execPath, args: [everythingJs, 'stdio'] };

/** Throws, saying what to run, when server-everything is not installed. */
export function requireEverything() {
  if (!existsSync(everythingJs)) throw new Error(`missing ${everythingJs}: run npm ci in agent/mcp/testdata/servers`);
}

/** Waits up to 20 s for the server called name to be ready; returns its status. */
export async function serverReady(app, name) {
  const end = Date.now() + 20000;
  for (;;) {
    const s = (await app.api('ListMCPServers')).find((x) => x.name === name);
    if (s?.status === 'ready') return s;
    if (Date.now() > end) throw new Error(`${name} never got ready: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Starts a new chat with the keyboard and waits for its composer. */
export async function newChat(page) {
  await page.keyboard.press('Control+n');
  await page.getByRole('textbox', { name: /message/i }).waitFor();
}
