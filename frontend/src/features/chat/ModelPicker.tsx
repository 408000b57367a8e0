import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Endpoint } from '../../transport/endpoints';
import { modelsOf } from '../../transport/endpoints';
import type { ModelLists } from '../../hooks/useEndpoints';
import './ModelPicker.css';

/** What the picker chose: endpointId "" is the default endpoint, model "" the endpoint's default model. */
export interface PickerChoice {
  endpointId: string;
  model: string;
}

export interface ModelPickerProps {
  endpoints: readonly Endpoint[];
  /** What each endpoint's /models said (useModelLists). */
  lists: ModelLists;
  /** What the thread runs with now (endpoint id "" = the default). */
  current: PickerChoice;
  onPick: (c: PickerChoice) => void;
  onClose: () => void;
}

interface Option {
  key: string;
  choice: PickerChoice;
  label: string;
  /** Searched with the label. */
  endpointName: string;
  note?: string;
}

interface Group {
  endpoint: Endpoint | null;
  options: Option[];
  status?: string;
  error?: string;
  more?: string;
}

/** Models shown per endpoint before the search narrows them (OpenRouter lists hundreds). */
const MAX_PER_ENDPOINT = 100;

/** Each word of the query appears in the model or the endpoint's name. */
export function matches(query: string, ...fields: string[]): boolean {
  const hay = fields.join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/**
 * The model picker: a search-as-you-type combobox over every endpoint and
 * its models (the saved list and what /models says). ↑/↓ move, Enter picks,
 * Esc closes; a name that no endpoint lists can still be used as typed.
 */
export function ModelPicker({ endpoints, lists, current, onPick, onClose }: ModelPickerProps) {
  const id = useId();
  const [query, setQuery] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const def = endpoints.find((e) => e.isDefault);

  const groups = useMemo<Group[]>(() => {
    const q = query.trim();
    const out: Group[] = [];
    const defaultOpt: Option = {
      key: 'default',
      choice: { endpointId: '', model: '' },
      label: 'Default model',
      endpointName: def ? `${def.name} ${def.defaultModel}` : '',
      note: def ? `${def.defaultModel || 'no model'} on ${def.name} (Settings)` : 'Settings decide',
    };
    if (!q || matches(q, 'default', defaultOpt.endpointName)) out.push({ endpoint: null, options: [defaultOpt] });
    for (const e of endpoints) {
      const l = lists[e.id];
      const all = modelsOf(e, l?.models).filter((m) => !q || matches(q, m, e.name));
      const options = all
        .slice(0, MAX_PER_ENDPOINT)
        .map((m) => ({ key: `${e.id}\u0000${m}`, choice: { endpointId: e.id, model: m }, label: m, endpointName: e.name }));
      const g: Group = { endpoint: e, options };
      if (l?.loading) g.status = 'Listing models…';
      else if (l?.error) g.error = l.error;
      if (all.length > options.length) g.more = `${all.length - options.length} more: type to search them.`;
      if (options.length || (!q && (g.status || g.error))) out.push(g);
    }
    // A model name no endpoint lists (yet): use it as typed, on the endpoint in use.
    const exact = out.some((g) => g.options.some((o) => o.label === q));
    const namesEndpoint = endpoints.some((e) => matches(q, e.name));
    if (q && !/\s/.test(q) && !exact && !namesEndpoint) {
      const e = endpoints.find((x) => x.id === current.endpointId) ?? def;
      if (e) {
        out.push({
          endpoint: null,
          options: [{ key: `typed\u0000${q}`, choice: { endpointId: current.endpointId, model: q }, label: q, endpointName: e.name, note: `Use as typed on ${e.name}` }],
        });
      }
    }
    return out;
  }, [query, endpoints, lists, current.endpointId, def]);

  const options = useMemo(() => groups.flatMap((g) => g.options), [groups]);
  const isCurrent = (o: Option) => o.choice.endpointId === current.endpointId && o.choice.model === current.model;
  const [active, setActive] = useState(0);
  // A new filter puts the cursor on what is in use, else on the first match.
  useEffect(() => {
    const i = query.trim() ? 0 : options.findIndex(isCurrent);
    setActive(i >= 0 ? i : 0);
  }, [query, options.length, current.endpointId, current.model]);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  const optId = (i: number) => `${id}-opt-${i}`;
  useEffect(() => {
    const el = document.getElementById(optId(active));
    if (el && listRef.current?.contains(el)) el.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const pick = (o: Option | undefined) => {
    if (o) onPick(o.choice);
  };

  let n = -1;
  return (
    <div className="mpick" role="dialog" aria-label="Choose a model">
      <input
        ref={inputRef}
        type="text"
        className="mpick-input"
        role="combobox"
        aria-label="Search models"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={options.length ? optId(active) : undefined}
        placeholder="Search models and endpoints"
        autoComplete="off"
        spellcheck={false}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          const len = options.length;
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            if (len) setActive((a) => (a + 1) % len);
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            if (len) setActive((a) => (a - 1 + len) % len);
          } else if (e.key === 'PageDown' || (e.key === 'End' && e.ctrlKey)) {
            e.preventDefault();
            if (len) setActive(len - 1);
          } else if (e.key === 'PageUp' || (e.key === 'Home' && e.ctrlKey)) {
            e.preventDefault();
            setActive(0);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            pick(options[active]);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            if (query) setQuery('');
            else onClose();
          } else if (e.key === 'Tab') {
            onClose();
          }
        }}
      />
      <div className="mpick-list" role="listbox" id={`${id}-list`} aria-label="Models" ref={listRef}>
        {groups.map((g, gi) => {
          const hid = `${id}-g${gi}`;
          return (
            <div key={g.endpoint?.id ?? `special-${gi}`} role="group" aria-labelledby={g.endpoint ? hid : undefined} className="mpick-group">
              {g.endpoint && (
                <div className="mpick-group-head" id={hid} role="presentation">
                  <span className="mpick-endpoint">{g.endpoint.name}</span>
                  {g.endpoint.isDefault && <span className="mpick-tag">default</span>}
                  {g.endpoint.source !== 'saved' && <span className="mpick-tag">{g.endpoint.source === 'environment' ? 'environment' : 'detected'}</span>}
                </div>
              )}
              {g.options.map((o) => {
                n += 1;
                const i = n;
                const selected = isCurrent(o);
                return (
                  <div
                    key={o.key}
                    id={optId(i)}
                    role="option"
                    aria-selected={selected}
                    className={`mpick-opt${i === active ? ' is-active' : ''}${selected ? ' is-current' : ''}`}
                    onMouseDown={(e) => e.preventDefault()}
                    onMouseMove={() => {
                      if (i !== active) setActive(i);
                    }}
                    onClick={() => pick(o)}
                  >
                    <span className="mpick-model mono">{o.label}</span>
                    {o.note && <span className="mpick-note">{o.note}</span>}
                    {selected && (
                      <span className="mpick-check" aria-hidden="true">
                        ✓
                      </span>
                    )}
                  </div>
                );
              })}
              {g.status && g.options.length === 0 && <div className="mpick-status">{g.status}</div>}
              {g.error && <div className="mpick-status error">{g.error}</div>}
              {g.more && <div className="mpick-status">{g.more}</div>}
            </div>
          );
        })}
        {!options.length && (
          <div className="mpick-status" role="presentation">
            {endpoints.length ? 'No model matches.' : 'No endpoint is configured: add one in Settings → Endpoints.'}
          </div>
        )}
      </div>
      <p className="mpick-help" aria-hidden="true">
        ↑↓ to move · Enter to choose · Esc to close · applies from the next answer
      </p>
    </div>
  );
}
