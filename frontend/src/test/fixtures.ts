import { parseAguiEvent, type AguiEvent } from '../transport/agui';
import plain from '../state/__fixtures__/plain-answer.json';
import stopped from '../state/__fixtures__/stopped.json';
import interrupt from '../state/__fixtures__/interrupt.json';
import clientTool from '../state/__fixtures__/client-tool.json';
import runError from '../state/__fixtures__/run-error.json';
import reasoningTools from '../state/__fixtures__/reasoning-tools.json';
import snapshot from '../state/__fixtures__/snapshot.json';

/** Recorded streams, narrowed through the same parser the transport uses. */
function load(raw: unknown[]): AguiEvent[] {
  return raw.map((r) => {
    const e = parseAguiEvent(r);
    if (!e) throw new Error(`fixture event does not parse: ${JSON.stringify(r)}`);
    return e;
  });
}

export const fixtures = {
  plain: load(plain),
  stopped: load(stopped),
  interrupt: load(interrupt),
  clientTool: load(clientTool),
  runError: load(runError),
  reasoningTools: load(reasoningTools),
  snapshot: load(snapshot),
};
