// What an approval card shows of the call it asks about, by tool name: the
// one place a built-in tool gets its own preview. A tool not listed here (an
// MCP tool, a tool added later) shows Go's `juncture:preview` when it sent one
// (a diff, new content, a command), and its arguments otherwise.
import type { ReactNode } from 'react';
import type { Preview } from '../../state/interrupts';
import { isObject, isString } from '../../transport/json';
import { hostOf, openableUrl } from '../tools/ToolParts';
import { DiffView } from './DiffView';

/** The call an approval asks about. */
export interface CallInfo {
  toolName: string;
  args: unknown;
  /** Go's preview of the call, when it sent one. */
  preview: Preview | undefined;
  /** An MCP tool: tool-name previews are for Juncture's own tools only. */
  mcp: boolean;
}

/** What the card shows of a call. */
export interface CallView {
  /** Replaces "Allow <tool>?" (a tool acting in this window says what it does, in words); the source line then names the tool. */
  title?: ReactNode;
  /** Under the title; null shows nothing. */
  body: ReactNode;
  /** The raw arguments under the body: not shown, collapsed, or open. */
  args: 'hidden' | 'closed' | 'open';
}

type PreviewFor = (call: CallInfo) => CallView | null;

/** Juncture's own tools with a preview of their own. */
const TOOL_PREVIEWS: Readonly<Record<string, PreviewFor>> = {
  run_command: (c) => {
    const cmd = commandOf(c.args);
    return cmd ? commandView(cmd.command, cmd.folder || c.preview?.folder || '', hasGoPreview(c.preview)) : null;
  },
  open_url: (c) => {
    if (!isObject(c.args) || !isString(c.args.url) || !c.args.url) return null;
    const url = c.args.url;
    const href = openableUrl(url);
    return {
      title: <>Open {hostOf(href ?? url)}?</>,
      body: (
        <div className="icard-plain">
          <p className="icard-plain-text mono" aria-label="Address">
            {url}
          </p>
          <p className="icard-note">{href ? 'Opens in your browser.' : 'Juncture opens only http and https links; deny this request.'}</p>
        </div>
      ),
      args: 'hidden',
    };
  },
  copy_to_clipboard: (c) => {
    if (!isObject(c.args) || !isString(c.args.text)) return null;
    const n = [...c.args.text].length;
    return {
      title: <>Copy to clipboard?</>,
      body: (
        <div className="icard-plain">
          <pre className="icard-plain-text icard-clip" aria-label="Text to copy">
            {c.args.text}
          </pre>
          <p className="icard-note">
            {n} {n === 1 ? 'character' : 'characters'}; replaces what your clipboard holds now.
          </p>
        </div>
      ),
      args: 'hidden',
    };
  },
  // write_file (a diff or the new content), read_file and every other tool:
  // Go's preview, below.
};

/** The card's view of a call: Go's command preview first, then the tool's own, then Go's preview. */
export function callView(c: CallInfo): CallView {
  const pv = c.preview;
  if (pv?.kind === 'command' && pv.body) return commandView(pv.body, pv.folder, false);
  const own = c.mcp ? undefined : TOOL_PREVIEWS[c.toolName];
  return own?.(c) ?? goPreview(pv);
}

/** Go's preview, when it shows more than the arguments (a "json" one is the arguments again). */
function hasGoPreview(pv: Preview | undefined): pv is Preview {
  return !!pv && !pv.error && pv.kind !== 'json' && pv.kind !== 'command';
}

function goPreview(pv: Preview | undefined): CallView {
  return hasGoPreview(pv) ? { body: <DiffView preview={pv} />, args: 'closed' } : { body: null, args: 'open' };
}

/** A command with its folder; the arguments collapsed under it (not shown when Go sent another preview). */
function commandView(command: string, folder: string, otherPreview: boolean): CallView {
  return {
    body: (
      <div className="icard-command">
        <pre className="mono" aria-label="Command">
          <span aria-hidden="true">$ </span>
          {command}
        </pre>
        {folder && (
          <div className="icard-folder">
            in <span className="mono">{folder}</span>
          </div>
        )}
      </div>
    ),
    args: otherPreview ? 'hidden' : 'closed',
  };
}

function commandOf(args: unknown): { command: string; folder: string } | null {
  if (!isObject(args)) return null;
  const cmd = args.command ?? args.cmd;
  const command = isString(cmd) ? cmd : Array.isArray(cmd) ? cmd.filter(isString).join(' ') : '';
  if (!command) return null;
  const f = args.cwd ?? args.folder ?? args.dir ?? args.workdir;
  return { command, folder: isString(f) ? f : '' };
}
