import { useEffect, useId, useRef, useState } from 'react';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import type { CompleteRequest } from '../../transport/mcpOffers';
import { focusOnMount } from '../../lib/focusOnMount';

export interface ArgFieldProps {
  transport: Transport;
  label: string;
  name: string;
  description?: string | undefined;
  required: boolean;
  value: string;
  onChange: (v: string) => void;
  /** Set when the server offers completions: the request for this argument, its value filled in per keystroke. */
  complete?: Omit<CompleteRequest, 'value'> | undefined;
  autoFocus?: boolean;
}

/** One argument of a prompt or a resource template, with the server's suggestions (completion/complete). */
export function ArgField({ transport, label, name, description, required, value, onChange, complete, autoFocus }: ArgFieldProps) {
  const id = useId();
  const [values, setValues] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const [open, setOpen] = useState(false);
  const seq = useRef(0);
  const req = complete ? JSON.stringify(complete) : '';

  useEffect(() => {
    if (!req || !open) return;
    const my = ++seq.current;
    const t = setTimeout(() => {
      const r = JSON.parse(req) as Omit<CompleteRequest, 'value'>;
      transport.call('CompleteMCP', { ...r, value }).then(
        (c) => {
          if (my !== seq.current) return;
          setValues(c.values);
          setNote(c.cut || c.hasMore ? `Showing ${c.values.length}${c.total ? ` of ${c.total}` : ''} suggestions.` : '');
        },
        (e: unknown) => {
          if (my !== seq.current) return;
          setValues([]);
          setNote(toJunctureError(e).message);
        },
      );
    }, 120);
    return () => clearTimeout(t);
  }, [transport, req, value, open]);

  const shown = open ? values.filter((v) => v !== value) : [];
  return (
    <div className="mcp-arg">
      <label htmlFor={id}>
        {label}
        {required ? <span className="mcp-required" aria-hidden="true"> *</span> : <span className="mcp-optional"> (optional)</span>}
      </label>
      <input
        id={id}
        name={name}
        value={value}
        required={required}
        autoComplete="off"
        ref={autoFocus ? focusOnMount : undefined}
        aria-describedby={description ? `${id}-d` : undefined}
        aria-controls={shown.length ? `${id}-s` : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
      />
      {description && (
        <div className="mcp-arg-desc" id={`${id}-d`}>
          {description}
        </div>
      )}
      {shown.length > 0 && (
        <ul className="mcp-suggestions" id={`${id}-s`} role="listbox" aria-label={`Suggestions for ${label}`}>
          {shown.map((v) => (
            <li key={v} role="option" aria-selected={false}>
              <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => onChange(v)}>
                {v}
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && note && <div className="mcp-arg-desc">{note}</div>}
    </div>
  );
}
