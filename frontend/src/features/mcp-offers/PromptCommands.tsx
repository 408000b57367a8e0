import { useState, type FormEvent } from 'react';
import type { Transport } from '../../transport';
import type { OfferProblem, PromptInfo } from '../../transport/mcpOffers';
import { ArgField } from './ArgField';
import { argsToSend, knownArgs, missingArgs, promptLabel } from './offers';

export interface SlashMenuProps {
  items: readonly PromptInfo[];
  active: number;
  loading: boolean;
  error: string | null;
  problems: readonly OfferProblem[];
  onPick: (p: PromptInfo) => void;
}

/** "/" in the composer: the servers' prompts, with their titles and descriptions. */
export function SlashMenu({ items, active, loading, error, problems, onPick }: SlashMenuProps) {
  return (
    <div className="mcp-panel mcp-slash" role="region" aria-label="Prompts from MCP servers">
      <div className="mcp-panel-head">Prompts · ↑↓ to choose, Enter to use, Esc to close</div>
      {items.length > 0 ? (
        <ul role="listbox" aria-label="Prompts" className="mcp-list">
          {items.map((p, i) => (
            <li key={`${p.server}/${p.name}`} role="option" aria-selected={i === active} className={i === active ? 'is-active' : ''}>
              <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => onPick(p)}>
                <span className="mcp-item-title">
                  /{p.name}
                  {p.title && p.title !== p.name ? <span className="mcp-item-sub"> · {p.title}</span> : null}
                </span>
                <span className="mcp-item-server">{p.serverTitle}</span>
                {p.description && <span className="mcp-item-desc">{p.description}</span>}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <div className="mcp-empty">{loading ? 'Loading prompts…' : error ? error : 'No prompt matches.'}</div>
      )}
      {problems.map((p) => (
        <div key={p.server} className="mcp-problem">
          {p.server}: {p.message}
        </div>
      ))}
    </div>
  );
}

export interface PromptFormProps {
  transport: Transport;
  prompt: PromptInfo;
  busy: boolean;
  onRun: (args: Record<string, string>) => void;
  onCancel: () => void;
}

/** A prompt's arguments, with the server's completions; its result goes into the composer. */
export function PromptForm({ transport, prompt, busy, onRun, onCancel }: PromptFormProps) {
  const [values, setValues] = useState<Record<string, string>>({});
  const missing = missingArgs(prompt, values);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!missing.length) onRun(argsToSend(values));
  };
  return (
    <form
      className="mcp-panel mcp-form"
      aria-label={`Prompt ${promptLabel(prompt)}`}
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <div className="mcp-form-head">
        <strong>{promptLabel(prompt)}</strong> <span className="mcp-item-server">{prompt.serverTitle}</span>
        {prompt.description && <div className="mcp-item-desc">{prompt.description}</div>}
      </div>
      {prompt.arguments.map((a, i) => (
        <ArgField
          key={a.name}
          transport={transport}
          label={a.title || a.name}
          name={a.name}
          description={a.description}
          required={a.required}
          value={values[a.name] ?? ''}
          autoFocus={i === 0}
          onChange={(v) => setValues((s) => ({ ...s, [a.name]: v }))}
          complete={
            prompt.completes
              ? { server: prompt.server, ref: { type: 'prompt', name: prompt.name }, argument: a.name, known: knownArgs(values, a.name) }
              : undefined
          }
        />
      ))}
      <div className="mcp-form-actions">
        <button type="button" className="btn small" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn primary small" disabled={busy || missing.length > 0}>
          {busy ? 'Getting…' : 'Insert'}
        </button>
      </div>
    </form>
  );
}
