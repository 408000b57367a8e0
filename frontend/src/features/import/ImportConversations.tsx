import { useId, useState } from 'react';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import type { ConversationImport } from '../../transport/imports';
import './ImportConversations.css';

/** As Go's importers.MaxBytes: a larger file is refused before it is read. */
const MAX_IMPORT_BYTES = 64 * 2 ** 20;

function readText(file: File): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(typeof r.result === 'string' ? r.result : '');
    r.onerror = () => reject(r.error ?? new Error('Could not read the file.'));
    r.readAsText(file);
  });
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

/**
 * Settings → General → "Import from ChatGPT or Claude": conversations.json
 * from either export (the format is told apart by its shape), then what was
 * imported, or where the file is wrong.
 */
export function ImportConversations({ transport }: ImportConversationsProps) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<ConversationImport | null>(null);
  const [error, setError] = useState<string | null>(null);

  const importFile = async (f: File) => {
    setSummary(null);
    setError(null);
    if (f.size > MAX_IMPORT_BYTES) {
      setError(`Could not import ${f.name}: it is ${Math.round(f.size / 2 ** 20)} MiB; at most 64 MiB can be imported.`);
      return;
    }
    setBusy(true);
    try {
      const text = await readText(f);
      setSummary(await transport.call('ImportConversations', 'auto', text));
    } catch (e: unknown) {
      setError(`Could not import ${f.name}: ${toJunctureError(e).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="import-conversations">
      <h3 id={`${id}-title`}>Import from ChatGPT or Claude</h3>
      <p className="set-help" id={`${id}-help`}>
        Choose <span className="mono">conversations.json</span> from the export (unzip it first). Branches, titles and times are kept;
        conversations imported before are skipped, and a file with a problem imports nothing.
      </p>
      <div className="set-field">
        <label htmlFor={`${id}-file`}>conversations.json</label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".json,application/json"
          aria-describedby={`${id}-help`}
          disabled={busy}
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void importFile(f);
          }}
        />
      </div>
      {busy && (
        <p className="set-help" role="status">
          Importing…
        </p>
      )}
      {error && (
        <p className="set-banner error import-conversations-result" role="alert">
          {error}
        </p>
      )}
      {summary && (
        <p className="set-banner info import-conversations-result" role="status">
          {importSummaryText(summary)}
        </p>
      )}
    </section>
  );
}
