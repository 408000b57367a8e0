import { useEffect, useId, useRef, useState } from 'react';
import { menuKeyDown } from '../../ui/menuKeys';
import type { Transport } from '../../transport';
import { DEFAULT_PRESET_ID } from '../../transport/endpoints';
import { usePresets } from '../../hooks/useEndpoints';
import type { Preset } from '../../transport/endpoints';
import './PresetMenu.css';

export interface PresetMenuProps {
  transport: Transport;
  /** Start a new chat from this preset. */
  onPick: (presetId: string) => void;
  /** Open Settings → Presets. */
  onManage?: () => void;
}

/** What a preset's tools are, in words ("all tools", "no tools", "2 tools: a, b"). */
export function toolsText(tools: readonly string[] | null | undefined): string {
  if (!tools) return 'all tools';
  if (!tools.length) return 'no tools';
  return `${tools.length} tool${tools.length === 1 ? '' : 's'}: ${tools.join(', ')}`;
}

/** A preset's one-line description: its model, its tools, the start of its instructions. */
export function presetDescription(p: Preset): string {
  const first = p.instructions.trim().split('\n')[0] ?? '';
  const instr = first.length > 70 ? `${first.slice(0, 70)}…` : first;
  return [p.model || 'default model', toolsText(p.tools), instr].filter(Boolean).join(' · ');
}

/** "New chat from preset": a small menu next to New chat (which, like Ctrl+N, uses the default). */
export function PresetMenu({ transport, onPick, onManage }: PresetMenuProps) {
  const { presets, error } = usePresets(transport);
  const [open, setOpen] = useState(false);
  const uid = useId();
  const btn = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const shown = (presets ?? []).filter((p) => p.id !== DEFAULT_PRESET_ID);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => {
      if (e.target instanceof Node && !menu.current?.contains(e.target) && !btn.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    btn.current?.focus();
  };

  return (
    <div className="pmenu">
      <button
        ref={btn}
        type="button"
        className="btn pmenu-btn"
        aria-label="New chat from a preset"
        title="New chat from a preset"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          ref={menu}
          className="pmenu-list"
          role="menu"
          aria-label="New chat from a preset"
          onKeyDown={(e) => menuKeyDown(e, { escape: close, tab: () => setOpen(false), keepEscape: true })}
        >
          {shown.map((p, i) => (
            <button
              key={p.id}
              type="button"
              role="menuitem"
              title={p.instructions.slice(0, 300) || undefined}
              aria-label={p.name}
              aria-describedby={`${uid}-desc-${i}`}
              onClick={() => {
                setOpen(false);
                onPick(p.id);
              }}
            >
              <span className="pmenu-name">{p.name}</span>
              <span className="pmenu-desc" id={`${uid}-desc-${i}`}>
                {presetDescription(p)}
              </span>
            </button>
          ))}
          {!shown.length && (
            <span className="pmenu-note" role="none">
              {error ? `Could not load the presets: ${error}` : presets ? 'No presets yet.' : 'Loading…'}
            </span>
          )}
          {onManage && (
            <>
              <div className="pmenu-sep" role="separator" />
              <button
                type="button"
                role="menuitem"
                className="pmenu-manage"
                onClick={() => {
                  setOpen(false);
                  onManage();
                }}
              >
                Manage presets…
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
