import { useEffect, useId, useRef, useState } from 'react';
import { useModalDialog } from '../../hooks/useModalDialog';
import type { Transport } from '../../transport';
import type { Provider, SettingsView, Status } from '../../transport/contract';
import { McpSettings } from '../mcp/McpSettings';
import { EndpointSettings } from './EndpointSettings';
import { PresetSettings } from './PresetSettings';
import { UpdateSettings } from '../updates/UpdateSettings';
import { GeneralTab } from './GeneralTab';
import { usePermissionRules } from './PermissionRules';
import { RulesTab } from './RulesTab';
import { useGeneralSettings } from './useGeneralSettings';
import { previewTheme } from '../../lib/theme';
import { IconClose } from '../../ui/icons';
import type { SettingsFocus } from '../../lib/settingsTarget';
import './SettingsDialog.css';

export { REVOKE_UNDO_MS } from './PermissionRules';

/**
 * Closing the dialog gives focus back to the field that had it, but when the
 * close came from a click (Close, ×), Chromium marks the field focused
 * without making it editable: keystrokes reach it and type nothing until it
 * is clicked (issue 22 item 1). Focusing it again, after the click is over,
 * makes it take the keys.
 */
function refocusField(): void {
  const f = document.activeElement;
  if (!(f instanceof HTMLTextAreaElement || f instanceof HTMLInputElement)) return;
  f.blur();
  f.focus({ preventScroll: true });
}

/** The well-known server a base URL is, from Go's list (GetSettings), or "custom". */
function presetOf(url: string, providers: readonly Provider[] = []): string {
  const u = url.replace(/\/+$/, '');
  return providers.find((p) => p.url === u)?.id ?? 'custom';
}

export type Tab = 'general' | 'rules' | 'mcp' | 'endpoints' | 'presets' | 'updates';
const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'general', label: 'General' },
  { id: 'rules', label: 'Rules' },
  { id: 'mcp', label: 'Tool servers (MCP)' },
  { id: 'endpoints', label: 'Endpoints' },
  { id: 'presets', label: 'Presets' },
  { id: 'updates', label: 'Updates' },
];

export interface SettingsDialogProps {
  open: boolean;
  transport: Transport;
  status: Status | null;
  /** Open at this General field (scrolled to, with the cursor in it). */
  focusField?: SettingsFocus | null;
  onClose: () => void;
  onSaved: (v: SettingsView) => void;
  /** Open on this tab (e.g. "Manage presets…" in the preset menu). */
  openAt?: Tab | null;
}

/**
 * The Settings dialog: its tabs, and the footer that saves General and asks
 * before closing with unsaved edits. Each tab is its own component; General's
 * form state (useGeneralSettings) and its rules (usePermissionRules) live here
 * so that they outlive a visit to another tab.
 */
export function SettingsDialog({ open, transport, status, focusField = null, onClose, onSaved, openAt }: SettingsDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [confirmClose, setConfirmClose] = useState(false);
  const bodyRef = useRef<HTMLDivElement>(null);
  const keepEditingRef = useRef<HTMLButtonElement>(null);
  const [tab, setTab] = useState<Tab>('general');
  // An endpoint change may change General's endpoint (the default): read it again.
  const [reloadNonce, setReloadNonce] = useState(0);
  useEffect(() => {
    if (open && openAt) setTab(openAt);
  }, [open, openAt]);

  useModalDialog(ref, open, refocusField);

  // After the effect above: the dialog is shown before its contents are read.
  const form = useGeneralSettings(transport, open, reloadNonce, onSaved, presetOf, !!status?.readOnly);
  const rules = usePermissionRules(transport, open, reloadNonce);
  const { dirty, saving } = form;

  useEffect(() => {
    if (open) setConfirmClose(false);
  }, [open, transport, reloadNonce]);

  // Opened at a field: General, the field scrolled to and focused once the
  // form has loaded (issue 22 item 5: "Change" under the workspace).
  const formLoaded = form.draft !== null;
  useEffect(() => {
    if (open && focusField) setTab('general');
  }, [open, focusField]);
  useEffect(() => {
    if (!open || !focusField || tab !== 'general' || !formLoaded) return;
    const f = document.getElementById(`${id}-${focusField.field}`);
    const body = bodyRef.current;
    if (!f || !body) return;
    // Centred in the body, which scrolls (scrollIntoView would scroll the dialog itself too, its header out of view).
    const fr = f.getBoundingClientRect();
    const br = body.getBoundingClientRect();
    body.scrollTop += fr.top - br.top - (br.height - fr.height) / 2;
    f.focus({ preventScroll: true });
  }, [open, focusField, tab, formLoaded, id]);

  // Scroll to the first field in error (and put the cursor in it).
  useEffect(() => {
    if (!form.scrollNonce) return;
    const f = bodyRef.current?.querySelector<HTMLElement>('.set-field.has-error');
    if (!f) return;
    f.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    f.querySelector<HTMLElement>('input, select, textarea')?.focus({ preventScroll: true });
  }, [form.scrollNonce]);

  /** Closes for good: the theme preview goes back to what is saved. */
  const close = () => {
    setConfirmClose(false);
    if (form.view) previewTheme(form.view.settings.theme);
    form.discard();
    rules.flush();
    onClose();
  };
  /** Close, Esc: asks first when there are unsaved edits. */
  // A read-only copy of damaged data: Go refuses every save from it.
  const readOnlyCopy = !!status?.readOnly;
  const requestClose = () => {
    if (readOnlyCopy) close(); // nothing typed here could be saved: nothing to ask
    else if (dirty && tab === 'general') setConfirmClose(true);
    else if (dirty) {
      setTab('general');
      setConfirmClose(true);
    } else close();
  };
  useEffect(() => {
    if (confirmClose) keepEditingRef.current?.focus();
  }, [confirmClose]);

  const panel = (t: Tab) => ({ role: 'tabpanel', id: `${id}-panel-${t}`, 'aria-labelledby': `${id}-tab-${t}` }) as const;

  return (
    <dialog
      ref={ref}
      className="settings"
      aria-labelledby={`${id}-title`}
      onClose={() => {
        if (open) onClose(); // closed by the browser, not by us
      }}
      onCancel={(e) => {
        // Esc closes the innermost thing: the "unsaved changes" question first.
        e.preventDefault();
        if (confirmClose) setConfirmClose(false);
        else requestClose();
      }}
    >
      <header className="settings-head">
        <h2 id={`${id}-title`}>Settings</h2>
        <button type="button" className="icon-btn" aria-label="Close settings" onClick={requestClose}>
          <IconClose />
        </button>
      </header>
      <div className="settings-tabs" role="tablist" aria-label="Settings sections">
        {TABS.map((t, i) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${id}-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`${id}-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={`settings-tab${tab === t.id ? ' is-selected' : ''}`}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
              e.preventDefault();
              const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
              setTab(next.id);
              document.getElementById(`${id}-tab-${next.id}`)?.focus();
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="settings-body" ref={bodyRef}>
        {readOnlyCopy && (
          <p className="set-banner" role="status">
            This is a read-only copy of Juncture’s damaged history: settings can be looked at here, not saved.
          </p>
        )}
        {tab === 'endpoints' && open && (
          <div {...panel('endpoints')}>
            <EndpointSettings
              transport={transport}
              keyStorage={form.view?.keyStorage}
              providers={form.view?.providers}
              locked={readOnlyCopy}
              onChanged={() => {
                if (!dirty) setReloadNonce((n) => n + 1);
              }}
            />
          </div>
        )}
        {tab === 'updates' && open && (
          <div role="tabpanel" id={`${id}-panel-updates`} aria-labelledby={`${id}-tab-updates`}>
            <UpdateSettings />
          </div>
        )}
        {tab === 'presets' && open && (
          <div {...panel('presets')}>
            <PresetSettings transport={transport} locked={readOnlyCopy} />
          </div>
        )}
        {tab === 'rules' && (
          <div {...panel('rules')}>
            <RulesTab id={id} transport={transport} state={rules} locked={readOnlyCopy} />
          </div>
        )}
        {tab === 'mcp' && open && (
          <div {...panel('mcp')}>
            <McpSettings transport={transport} locked={readOnlyCopy} />
          </div>
        )}
        {tab === 'general' && (
          <div {...panel('general')}>
            <GeneralTab id={id} transport={transport} status={status} form={form} presets={form.view?.providers ?? []} presetOf={(u) => presetOf(u, form.view?.providers)} />
          </div>
        )}
      </div>
      {confirmClose ? (
        <footer className="settings-foot is-confirm" role="alertdialog" aria-labelledby={`${id}-confirm`}>
          <div className="settings-foot-msg" id={`${id}-confirm`}>
            <strong>You have unsaved changes.</strong> Close without saving them?
          </div>
          <button type="button" className="btn" ref={keepEditingRef} onClick={() => setConfirmClose(false)}>
            Keep editing
          </button>
          <button type="button" className="btn danger" onClick={close}>
            Discard changes
          </button>
          <button
            type="button"
            className="btn primary"
            disabled={saving}
            onClick={() => {
              setConfirmClose(false);
              void form.save();
            }}
          >
            Save
          </button>
        </footer>
      ) : (
        <footer className="settings-foot">
          <div className="settings-foot-msg" aria-live="polite">
            {form.saveError ? (
              <span className="set-error">{form.saveError}</span>
            ) : form.saved && !dirty ? (
              <span className="ok">Saved.</span>
            ) : dirty ? (
              <span className="set-unsaved">Unsaved changes</span>
            ) : null}
          </div>
          <button type="button" className="btn" onClick={requestClose}>
            Close
          </button>
          {tab === 'general' && !readOnlyCopy && (
            <button type="button" className="btn primary" onClick={() => void form.save()} disabled={!form.draft || saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
          )}
        </footer>
      )}
    </dialog>
  );
}
