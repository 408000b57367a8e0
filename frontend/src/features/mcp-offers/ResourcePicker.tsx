import { useState } from 'react';
import { formatSize } from '../../lib/attachments';
import type { Transport } from '../../transport';
import { useAsyncAction } from '../../hooks/useAsyncAction';
import type { ResourceCatalog, ResourceInfo, ResourceRead, TemplateInfo } from '../../transport/mcpOffers';
import { ArgField } from './ArgField';
import { filterResources, knownArgs } from './offers';
import { focusOnMount } from '../../lib/focusOnMount';

export interface ResourcePickerProps {
  transport: Transport;
  catalog: ResourceCatalog | null;
  error: string | null;
  onAttach: (files: ResourceRead['files'], notes: string[]) => void;
  onClose: () => void;
}

/** "Add from a server": every server's resources and templates, searchable; a pick is read and attached. */
export function ResourcePicker({ transport, catalog, error, onAttach, onClose }: ResourcePickerProps) {
  const [query, setQuery] = useState('');
  const [template, setTemplate] = useState<TemplateInfo | null>(null);
  const [vars, setVars] = useState<Record<string, string>>({});
  // A read that gives nothing to attach is a problem too, said in the same place.
  const reader = useAsyncAction(async (read: () => Promise<ResourceRead>): Promise<string | null> => {
    const r = await read();
    if (!r.files.length) return r.notes.join(' ') || 'The server returned nothing to attach.';
    onAttach(r.files, r.notes);
    return null;
  });
  const { busy: reading, error: problem } = reader;
  const attach = async (read: () => Promise<ResourceRead>) => {
    const nothing = await reader.run(read);
    if (nothing) reader.setError(nothing);
  };
  const readResource = (r: ResourceInfo) => void attach(() => transport.call('ReadMCPResource', r.server, r.uri, r.name));

  return (
    <div
      className="mcp-panel mcp-picker"
      role="dialog"
      aria-label="Add from a server"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          if (template) setTemplate(null);
          else onClose();
        }
      }}
    >
      {template ? (
        <form
          className="mcp-form"
          aria-label={`Resource template ${template.title || template.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            void attach(() => transport.call('ReadMCPResourceTemplate', template.server, template.uriTemplate, vars));
          }}
        >
          <div className="mcp-form-head">
            <strong>{template.title || template.name}</strong> <code className="mcp-uri">{template.uriTemplate}</code>
            {template.description && <div className="mcp-item-desc">{template.description}</div>}
          </div>
          {template.variables.map((v, i) => (
            <ArgField
              key={v}
              transport={transport}
              label={v}
              name={v}
              required
              value={vars[v] ?? ''}
              autoFocus={i === 0}
              onChange={(x) => setVars((s) => ({ ...s, [v]: x }))}
              complete={template.completes ? { server: template.server, ref: { type: 'resource', uri: template.uriTemplate }, argument: v, known: knownArgs(vars, v) } : undefined}
            />
          ))}
          <div className="mcp-form-actions">
            <button type="button" className="btn small" onClick={() => setTemplate(null)}>
              Back
            </button>
            <button type="submit" className="btn primary small" disabled={reading || template.variables.some((v) => !(vars[v] ?? '').trim())}>
              {reading ? 'Reading…' : 'Attach'}
            </button>
          </div>
        </form>
      ) : (
        <>
          <div className="mcp-picker-head">
            <input
              type="search"
              className="mcp-search"
              placeholder="Search resources"
              aria-label="Search resources"
              value={query}
              ref={focusOnMount}
              onChange={(e) => setQuery(e.currentTarget.value)}
            />
            <button type="button" className="btn small" onClick={onClose}>
              Close
            </button>
          </div>
          {!catalog && <div className="mcp-empty">{error ?? 'Loading resources…'}</div>}
          <div className="mcp-picker-list">
            {catalog?.servers.map((s) => {
              const rs = filterResources(s.resources, query);
              const ts = filterResources(s.templates, query);
              if (!rs.length && !ts.length) return null;
              return (
                <section key={s.server} aria-label={`Resources of ${s.title}`}>
                  <h3 className="mcp-server-head">{s.title}</h3>
                  <ul className="mcp-list">
                    {rs.map((r) => (
                      <li key={r.uri}>
                        <button type="button" disabled={reading} onClick={() => readResource(r)} title={r.uri}>
                          <span className="mcp-item-title">{r.title || r.name}</span>
                          <span className="mcp-item-server">
                            {r.mimeType}
                            {r.size ? ` · ${formatSize(r.size)}` : ''}
                          </span>
                          {r.description && <span className="mcp-item-desc">{r.description}</span>}
                        </button>
                      </li>
                    ))}
                    {ts.map((t) => (
                      <li key={t.uriTemplate}>
                        <button
                          type="button"
                          disabled={reading}
                          onClick={() => {
                            setVars({});
                            setTemplate(t);
                          }}
                          title={t.uriTemplate}
                        >
                          <span className="mcp-item-title">{t.title || t.name}</span>
                          <span className="mcp-item-server">template · {t.variables.join(', ')}</span>
                          {t.description && <span className="mcp-item-desc">{t.description}</span>}
                        </button>
                      </li>
                    ))}
                  </ul>
                </section>
              );
            })}
          </div>
          {catalog?.problems.map((p) => (
            <div key={p.server} className="mcp-problem">
              {p.server}: {p.message}
            </div>
          ))}
        </>
      )}
      {problem && (
        <div className="mcp-problem" role="alert">
          {problem}
        </div>
      )}
    </div>
  );
}
