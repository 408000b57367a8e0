import { useId, useRef, useState } from 'react';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import { readText } from '../../lib/readText';
import type { ConversationImport } from '../../transport/imports';
import { useAsyncAction } from '../../hooks/useAsyncAction';
import './ImportConversations.css';
import { AlertLine } from '../../ui/AlertLine';

/** As Go's importers.MaxBytes: a larger ChatGPT or Claude file is refused before it is parsed. */
const MAX_IMPORT_BYTES = 64 * 2 ** 20;
/** As Go's store.MaxImportBytes: a larger Juncture export is refused before it is read. */
const MAX_THREAD_BYTES = 128 * 2 ** 20;

/**
 * A Juncture chat exported as JSON is one object ({"format": …}); ChatGPT's
 * and Claude's conversations.json are a list. The file is the first when its
 * first character that is not whitespace (or a BOM) is "{", read 64 KiB at a
 * time until one is found: a file that starts with more than 4 KiB of
 * whitespace is still told apart.
 */
async function fileIsThreadExport(f: Blob): Promise<boolean> {
  const chunk = 64 * 2 ** 10;
  for (let at = 0; at < f.size; at += chunk) {
    const text = (await readText(f.slice(at, at + chunk))).replace(/^\uFEFF/, '');
    const m = /[^\s]/.exec(text);
    if (m) return m[0] === '{';
  }
  return false;
}

/**
 * Go names the file "conversations.json" in its errors (it never sees the
 * name): the place is said as a line and column instead, after the name of
 * the file actually chosen (issue 22 item 24).
 */
export function importErrorText(fileName: string, message: string): string {
  const m = message.replace(/^conversations\.json:(\d+):(\d+): /, 'line $1, column $2: ');
  return `Could not import ${fileName}: ${m}`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What an import did, in a sentence or two. */
export function importSummaryText(s: ConversationImport): string {
  const already = s.alreadyImported;
  let text: string;
  if (s.threads > 0) {
    text = `Imported ${plural(s.threads, 'conversation', 'conversations')} (${plural(s.messages, 'message', 'messages')})`;
    if (already > 0) text += `; ${already} ${already === 1 ? 'was' : 'were'} already here`;
    text += '.';
  } else if (already > 0) {
    text = already === 1 ? 'Nothing new: its conversation was already here.' : `Nothing new: all ${already} conversations were already here.`;
  } else {
    text = 'The file has no conversations.';
  }
  if (s.skippedMessages > 0) {
    text += ` ${plural(s.skippedMessages, 'message', 'messages')} that ${s.skippedMessages === 1 ? 'was' : 'were'} not text (system notes, tool calls and their output) ${s.skippedMessages === 1 ? 'was' : 'were'} left out.`;
  }
  if (s.emptyConversations > 0) {
    text += ` ${plural(s.emptyConversations, 'conversation', 'conversations')} without a message ${s.emptyConversations === 1 ? 'was' : 'were'} left out.`;
  }
  return text;
}

export interface ImportConversationsProps {
  transport: Transport;
}

type Done = { kind: 'conversations'; summary: ConversationImport } | { kind: 'thread'; title: string };

/**
 * Settings → General → "Import conversations": one control for a chat
 * exported from Juncture as JSON and for conversations.json from a ChatGPT
 * or Claude export (told apart by their shape), then what was imported, or
 * where the file is wrong.
 */
export function ImportConversations({ transport }: ImportConversationsProps) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const importing = useAsyncAction(
    async (f: File) => {
      // The start tells the format; a file too large for it is refused before it is read whole.
      if (await fileIsThreadExport(f)) {
        const t = await transport.call('ImportThread', await readText(f));
        setDone({ kind: 'thread', title: t.title });
      } else if (f.size > MAX_IMPORT_BYTES) {
        throw new Error(`it is ${Math.round(f.size / 2 ** 20)} MiB; at most 64 MiB can be imported.`);
      } else {
        setDone({ kind: 'conversations', summary: await transport.call('ImportConversations', 'auto', await readText(f)) });
      }
    },
    { describe: (e, f) => importErrorText(f.name, toJunctureError(e).message) },
  );
  const { busy, error, setError } = importing;

  const importFile = async (f: File) => {
    setDone(null);
    setError(null);
    setChosen(f.name);
    if (f.size > MAX_THREAD_BYTES) {
      setError(`Could not import ${f.name}: it is ${Math.round(f.size / 2 ** 20)} MiB; at most 128 MiB can be imported.`);
      return;
    }
    await importing.run(f);
  };

  return (
    <section aria-labelledby={`${id}-title`} className="import-conversations">
      <h3 id={`${id}-title`}>Import conversations</h3>
      <p className="set-help" id={`${id}-help`}>
        A chat exported from Juncture as JSON, or <span className="mono">conversations.json</span> from a ChatGPT or Claude export (unzip
        it first). Branches, titles and times are kept; conversations imported before are skipped, and a file with a problem imports
        nothing.
      </p>
      <div className="import-pick">
        <input
          ref={fileRef}
          id={`${id}-file`}
          className="import-file-input"
          type="file"
          accept=".json,application/json"
          aria-label="File to import"
          aria-describedby={`${id}-help`}
          tabIndex={-1}
          disabled={busy}
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (f) void importFile(f);
          }}
        />
        <button type="button" className="btn" aria-describedby={`${id}-help`} disabled={busy} onClick={() => fileRef.current?.click()}>
          Choose a file to import…
        </button>
        <span className="import-chosen" aria-hidden={chosen === null}>
          {chosen ?? 'No file chosen'}
        </span>
      </div>
      {busy && (
        <p className="set-help" role="status">
          Importing…
        </p>
      )}
      <AlertLine className="set-banner error import-conversations-result" text={error} />
      {done && (
        <p className="set-banner info import-conversations-result" role="status">
          {done.kind === 'thread' ? `Imported the chat “${done.title || 'New chat'}”.` : importSummaryText(done.summary)}
        </p>
      )}
    </section>
  );
}
