import { useId, useState } from 'react';
import type { McpImportSummary } from '../../transport/contract';
import { readText } from '../../lib/readText';

export interface McpImportProps {
  /** Where Claude Desktop keeps its configuration on this system. */
  claudeDesktopPath: string;
  busy: boolean;
  summary: McpImportSummary | null;
  error: string | null;
  onImport: (text: string) => void;
  onClose: () => void;
}

/** "Import from Claude Desktop…": a file or its pasted text, then what was added and skipped. */
export function McpImport({ claudeDesktopPath, busy, summary, error, onImport, onClose }: McpImportProps) {
  const id = useId();
  const [paste, setPaste] = useState('');
  const [readError, setReadError] = useState<string | null>(null);
  return (
    <div className="mcp-import" role="group" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} className="mcp-form-title">
        Import from Claude Desktop
      </h4>
      <p className="set-help">
        Servers with new names are added; identical ones are skipped.
        {claudeDesktopPath && (
          <>
            {' '}
            Claude Desktop usually keeps its configuration in <span className="mono">{claudeDesktopPath}</span>.
          </>
        )}
      </p>
      <div className="set-field">
        <label htmlFor={`${id}-file`}>Configuration file</label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".json,application/json"
          disabled={busy}
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (!f) return;
            setReadError(null);
            readText(f).then(onImport, (err: unknown) =>
              setReadError(`Could not read ${f.name}: ${err instanceof Error ? err.message : String(err)}`),
            );
          }}
        />
      </div>
      <div className="set-field">
        <label htmlFor={`${id}-paste`}>Or paste its text</label>
        <textarea
          id={`${id}-paste`}
          className="mono"
          rows={4}
          spellcheck={false}
          value={paste}
          placeholder={'{ "mcpServers": { … } }'}
          onChange={(e) => setPaste(e.currentTarget.value)}
        />
      </div>
      <div className="mcp-actions">
        <button type="button" className="btn primary" disabled={busy || !paste.trim()} onClick={() => onImport(paste)}>
          {busy ? 'Importing…' : 'Import text'}
        </button>
        <button type="button" className="btn subtle" onClick={onClose}>
          Close
        </button>
      </div>
      {(readError || error) && (
        <p className="set-banner error" role="alert">
          {readError || error}
        </p>
      )}
      {summary && (
        <div className="mcp-import-summary" role="status">
          {summary.added.length === 0 && summary.skipped.length === 0 ? (
            <p>Nothing to import: it lists no servers.</p>
          ) : (
            <>
              <p>
                {summary.added.length ? (
                  <>
                    Added {summary.added.length}: <span className="mono">{summary.added.join(', ')}</span>
                  </>
                ) : (
                  'Nothing was added.'
                )}
              </p>
              {summary.skipped.length > 0 && (
                <>
                  <p>Skipped {summary.skipped.length}:</p>
                  <ul>
                    {summary.skipped.map((s) => (
                      <li key={s.name}>
                        <span className="mono">{s.name}</span> — {s.reason}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
