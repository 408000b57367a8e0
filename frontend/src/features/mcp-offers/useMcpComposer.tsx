import { useContext, useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { PendingFile } from '../../lib/attachments';
import { TransportContext, toJunctureError, type Transport } from '../../transport';
import type { PromptInfo, PromptList, ResourceCatalog } from '../../transport/mcpOffers';
import { matchPrompts, pendingFromServer, slashQuery } from './offers';
import { PromptForm, SlashMenu } from './PromptCommands';
import { ResourcePicker } from './ResourcePicker';
import './McpOffers.css';

export interface McpComposerOptions {
  text: string;
  setText: (t: string) => void;
  addFiles: (files: PendingFile[]) => void;
  /** What the composer's hint line says (notes on what was cut; errors). */
  setNote: (note: string | null) => void;
  disabled: boolean;
}

export interface McpComposer {
  /** The menu, form or picker above the composer box (null: none open). */
  panel: ReactNode;
  /** "Add from a server", beside the paperclip (null: no server offers resources). */
  button: ReactNode;
  /** The composer's keys go here first; true: handled. */
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
}

type Loaded<T> = { data: T | null; error: string | null };

/** A list from Go, loaded when first needed and again after each "mcp" event (a server's list changed). */
function useOfferList<T>(transport: Transport | null, wanted: boolean, load: (t: Transport) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!transport || !wanted) return;
    return transport.subscribe('mcp', () => setNonce((n) => n + 1));
  }, [transport, wanted]);
  useEffect(() => {
    if (!transport || !wanted) return;
    let live = true;
    load(transport).then(
      (data) => live && setState({ data, error: null }),
      (e: unknown) => live && setState((s) => ({ data: s.data, error: toJunctureError(e).message })),
    );
    return () => {
      live = false;
    };
  }, [transport, wanted, nonce, load]);
  return state;
}

const loadPrompts = (t: Transport): Promise<PromptList> => t.call('ListMCPPrompts');
const loadResources = (t: Transport): Promise<ResourceCatalog> => t.call('ListMCPResources');

/**
 * The composer's MCP commands: "/" lists the servers' prompts, a prompt
 * with arguments opens a small form (with the server's completions), and
 * its result replaces the draft, editable before sending; "Add from a
 * server" attaches a server's resource as a file.
 */
export function useMcpComposer({ text, setText, addFiles, setNote, disabled }: McpComposerOptions): McpComposer {
  const transport = useContext(TransportContext);
  const query = disabled ? null : slashQuery(text);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [form, setForm] = useState<PromptInfo | null>(null);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [everWanted, setEverWanted] = useState(false);
  if (query !== null && !everWanted) setEverWanted(true);
  const prompts = useOfferList(transport, everWanted, loadPrompts);
  const resources = useOfferList(transport, true, loadResources);

  const menuOpen = query !== null && dismissed !== text && form === null && !!transport;
  const items = menuOpen ? matchPrompts(prompts.data?.prompts ?? [], query ?? '') : [];
  const activeIndex = Math.min(active, Math.max(0, items.length - 1));

  const run = async (p: PromptInfo, args: Record<string, string>) => {
    if (!transport) return;
    setBusy(true);
    try {
      const r = await transport.call('GetMCPPrompt', p.server, p.name, args);
      setText(r.text);
      if (r.files.length) addFiles(r.files.map(pendingFromServer));
      setNote(r.notes.length ? r.notes.join(' ') : null);
      setForm(null);
    } catch (e) {
      setNote(toJunctureError(e).message);
    } finally {
      setBusy(false);
    }
  };

  const pick = (p: PromptInfo) => {
    setActive(0);
    if (p.arguments.length) setForm(p);
    else void run(p, {});
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!menuOpen) return false;
    if (e.key === 'Escape') {
      setDismissed(text);
      return true;
    }
    if (!items.length) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const d = e.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + d + items.length) % items.length);
      return true;
    }
    if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      const p = items[activeIndex];
      if (p) pick(p);
      return true;
    }
    return false;
  };

  let panel: ReactNode = null;
  if (transport && form) {
    panel = <PromptForm transport={transport} prompt={form} busy={busy} onRun={(args) => void run(form, args)} onCancel={() => setForm(null)} />;
  } else if (transport && picking) {
    panel = (
      <ResourcePicker
        transport={transport}
        catalog={resources.data}
        error={resources.error}
        onAttach={(files, notes) => {
          addFiles(files.map(pendingFromServer));
          setNote(notes.length ? notes.join(' ') : null);
          setPicking(false);
        }}
        onClose={() => setPicking(false)}
      />
    );
  } else if (menuOpen) {
    panel = <SlashMenu items={items} active={activeIndex} loading={!prompts.data && !prompts.error} error={prompts.error} problems={prompts.data?.problems ?? []} onPick={pick} />;
  }

  const offersResources = (resources.data?.servers.length ?? 0) > 0;
  const button =
    transport && offersResources ? (
      <button
        type="button"
        className="composer-btn composer-attach mcp-add-btn"
        onClick={() => setPicking((p) => !p)}
        disabled={disabled}
        aria-expanded={picking}
        aria-label="Add from a server"
        title="Add a file from an MCP server (its resources)"
      >
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <rect x="3" y="4" width="18" height="7" rx="1.5" />
          <rect x="3" y="13" width="18" height="7" rx="1.5" />
          <path d="M7 7.5h.01M7 16.5h.01" />
        </svg>
      </button>
    ) : null;

  return { panel, button, onKeyDown };
}
