import { SetField } from './SetField';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import type {
  PermissionRule,
  SettingSource,
  Settings,
  SettingsField,
  SettingsView,
  Status,
  TestConnectionResult,
  Theme,
} from '../../transport/contract';
import { isSettingsField, keyStoragePhrase, keyUnavailableHelp } from '../../transport/contract';
import { notificationsSupported } from '../../hooks/useAttention';
import { useMcpServers, type McpCatalog } from '../../hooks/useMcpServers';
import { McpSettings } from '../mcp/McpSettings';
import { EndpointSettings } from './EndpointSettings';
import { PresetSettings } from './PresetSettings';
import { ImportConversations } from '../import/ImportConversations';
import { formatTime, modelsAvailable } from '../../lib/format';
import {
  DEMO_MODEL,
  ENV_VARS,
  NOT_A_URL,
  displaySource,
  isDirty,
  isEndpointUrl,
  savePayload,
  validateSettings,
  type FieldErrors,
} from '../../lib/settingsForm';
import { previewTheme } from '../../lib/theme';
import { IconClose } from '../../ui/icons';
import './SettingsDialog.css';

export const PRESETS = [
  { id: 'openai', label: 'OpenAI', url: 'https://api.openai.com/v1' },
  { id: 'ollama', label: 'Ollama (local)', url: 'http://127.0.0.1:11434/v1' },
  { id: 'lmstudio', label: 'LM Studio (local)', url: 'http://127.0.0.1:1234/v1' },
  { id: 'openrouter', label: 'OpenRouter', url: 'https://openrouter.ai/api/v1' },
] as const;

function presetOf(url: string): string {
  const u = url.replace(/\/+$/, '');
  return PRESETS.find((p) => p.url === u)?.id ?? 'custom';
}

/** Where a field's value comes from, or "edited" while the draft differs from it. */
type Chip = SettingSource | 'edited';

const SOURCE_TEXT: Record<Chip, string> = {
  edited: 'not saved yet',
  environment: 'from environment',
  saved: 'saved',
  default: 'default',
  detected: 'detected',
};

/** A permission rule as Settings lists it (MCP rules by their tool's and server's titles). */
function ruleText(r: PermissionRule, cat: McpCatalog): ReactNode {
  if (r.scope === 'server') {
    const server = r.pattern || r.tool.replace(/^mcp:/, '');
    return <>Every tool of {cat.serverTitles.get(server) ?? server}</>;
  }
  if (r.scope === 'tool-identity') {
    const t = cat.tools.get(r.tool);
    return (
      <>
        <strong>{t?.title ?? r.tool}</strong>
        {t ? ` (${t.serverTitle})` : ''} always, while its server keeps the tool as it was
      </>
    );
  }
  return (
    <>
      <strong className="mono">{r.tool}</strong>{' '}
      {r.scope === 'tool' ? (
        'always'
      ) : r.scope === 'command-prefix' ? (
        <>
          commands starting with <span className="mono">{r.pattern}</span>
        </>
      ) : r.scope === 'folder' ? (
        <>
          inside <span className="mono">{r.pattern}</span>
        </>
      ) : r.scope === 'file' ? (
        <>
          on <span className="mono">{r.pattern}</span> only
        </>
      ) : r.scope === 'thread' ? (
        'in one chat'
      ) : (
        `${r.scope} ${r.pattern ?? ''}`
      )}
    </>
  );
}

type Tab = 'general' | 'mcp' | 'endpoints' | 'presets';
const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'general', label: 'General' },
  { id: 'mcp', label: 'Tool servers (MCP)' },
  { id: 'endpoints', label: 'Endpoints' },
  { id: 'presets', label: 'Presets' },
];

/** How long a revoked rule can be restored (Undo) before it is gone. */
export const REVOKE_UNDO_MS = 10_000;

export interface SettingsDialogProps {
  open: boolean;
  transport: Transport;
  status: Status | null;
  onClose: () => void;
  onSaved: (v: SettingsView) => void;
}

export function SettingsDialog({ open, transport, status, onClose, onSaved }: SettingsDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [view, setView] = useState<SettingsView | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  // Go's answer to the last Save, per field (a field's goes when it changes).
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  // Fields checked as they are edited: all after a Save, the URL after a Test.
  const [live, setLive] = useState<ReadonlySet<SettingsField>>(new Set());
  const [scrollNonce, setScrollNonce] = useState(0);
  const [confirmClose, setConfirmClose] = useState(false);
  const [revoking, setRevoking] = useState<ReadonlySet<string>>(new Set());
  const revokeTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const bodyRef = useRef<HTMLDivElement>(null);
  const keepEditingRef = useRef<HTMLButtonElement>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [test, setTest] = useState<TestConnectionResult | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [rules, setRules] = useState<PermissionRule[] | null>(null);
  const [rulesError, setRulesError] = useState<string | null>(null);
  const [preset, setPreset] = useState('custom');
  const [notif, setNotif] = useState<NotificationPermission | 'unsupported'>(() =>
    notificationsSupported() ? Notification.permission : 'unsupported',
  );
  const [tab, setTab] = useState<Tab>('general');
  // An endpoint change may change General's endpoint (the default): read it again.
  const [reloadNonce, setReloadNonce] = useState(0);
  const catalog = useMcpServers(transport);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
    } else if (!open && d.open) {
      if (typeof d.close === 'function') d.close();
      else d.removeAttribute('open');
    }
  }, [open]);

  const loadRules = () => {
    transport
      .call('ListPermissionRules')
      .then((r) => {
        setRules(r);
        setRulesError(null);
      })
      .catch((e: unknown) => setRulesError(toJunctureError(e).message));
  };

  useEffect(() => {
    if (!open) return;
    setSaved(false);
    setSaveError(null);
    setServerErrors({});
    setLive(new Set());
    setConfirmClose(false);
    setTest(null);
    setTestError(null);
    transport
      .call('GetSettings')
      .then((v) => {
        setView(v);
        setDraft(v.settings);
        setPreset(presetOf(v.settings.baseUrl));
        setLoadError(null);
      })
      .catch((e: unknown) => setLoadError(toJunctureError(e).message));
    loadRules();
  }, [open, transport, reloadNonce]); // loadRules only closes over transport

  const locked = (f: SettingsField) => view?.sources[f] === 'environment';

  // What is wrong now: Go's last answer for fields not changed since, and the
  // live checks (so an error goes as soon as the value is fixed).
  const checked = draft ? validateSettings(draft, locked) : {};
  const fieldErrors: FieldErrors = { ...serverErrors };
  for (const f of live) {
    if (checked[f]) fieldErrors[f] = checked[f];
  }
  const errorCount = Object.keys(fieldErrors).length;

  // A Save that found errors: once they are all fixed, its message goes too.
  useEffect(() => {
    if (errorCount === 0) setSaveError((m) => (m?.startsWith('Nothing was saved. Fix') ? null : m));
  }, [errorCount]);

  // Scroll to the first field in error (and put the cursor in it).
  useEffect(() => {
    if (!scrollNonce) return;
    const f = bodyRef.current?.querySelector<HTMLElement>('.set-field.has-error');
    if (!f) return;
    f.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    f.querySelector<HTMLElement>('input, select, textarea')?.focus({ preventScroll: true });
  }, [scrollNonce]);

  const set = <K extends SettingsField>(k: K, v: Settings[K]) => {
    setDraft((d) => (d ? { ...d, [k]: v } : d));
    setSaved(false);
    setServerErrors((e) => {
      // The model's "choose a model" depends on the URL too.
      const drop: SettingsField[] = k === 'baseUrl' ? [k, 'model'] : [k];
      if (!drop.some((f) => e[f])) return e;
      const c = { ...e };
      for (const f of drop) delete c[f];
      return c;
    });
    if (k === 'baseUrl' || k === 'apiKey') {
      // What Test connection found was for the old endpoint.
      setTest(null);
      setTestError(null);
    }
  };

  const save = async () => {
    if (!draft || !view) return;
    setLive(new Set(Object.keys(draft) as SettingsField[]));
    if (Object.keys(validateSettings(draft, locked)).length) {
      setSaveError('Nothing was saved. Fix the fields marked in red.');
      setScrollNonce((n) => n + 1);
      return;
    }
    setSaving(true);
    setSaveError(null);
    try {
      const v = await transport.call('SaveSettings', savePayload(draft, view));
      setView(v);
      setDraft(v.settings);
      setServerErrors({});
      setLive(new Set());
      setSaved(true);
      onSaved(v);
    } catch (e) {
      const err = toJunctureError(e);
      const fe: FieldErrors = {};
      const other: string[] = [];
      for (const [k, msg] of Object.entries(err.details ?? {})) {
        if (isSettingsField(k)) fe[k] = msg;
        else other.push(`${k}: ${msg}`);
      }
      setServerErrors(fe);
      setSaveError(
        err.code === 'invalid-settings'
          ? `Nothing was saved. ${Object.keys(fe).length ? 'Fix the fields marked in red.' : err.message}${other.length ? ` ${other.join('; ')}` : ''}`
          : `Nothing was saved: ${err.message}`,
      );
      if (Object.keys(fe).length) setScrollNonce((n) => n + 1);
    } finally {
      setSaving(false);
    }
  };

  const runTest = async () => {
    if (!draft) return;
    setTest(null);
    setTestError(null);
    const url = draft.baseUrl.trim();
    if (!url) {
      setTestError('Enter the endpoint’s base URL first.');
      return;
    }
    if (!isEndpointUrl(url)) {
      setLive((l) => new Set(l).add('baseUrl'));
      setTestError(NOT_A_URL);
      return;
    }
    setTesting(true);
    try {
      const loopGuard = Number.isInteger(draft.loopGuard) ? draft.loopGuard : 25;
      setTest(await transport.call('TestConnection', { ...draft, loopGuard }));
    } catch (e) {
      setTestError(toJunctureError(e).message);
    } finally {
      setTesting(false);
    }
  };

  // Revoke waits REVOKE_UNDO_MS with an Undo in the rule's place; closing
  // Settings carries out what is waiting.
  const commitRevoke = useCallback(
    (ruleId: string) => {
      const tm = revokeTimers.current.get(ruleId);
      if (tm === undefined) return;
      clearTimeout(tm);
      revokeTimers.current.delete(ruleId);
      transport
        .call('RevokePermissionRule', ruleId)
        .then(() => {
          setRevoking((r) => {
            const c = new Set(r);
            c.delete(ruleId);
            return c;
          });
          loadRules();
        })
        .catch((e: unknown) => {
          setRevoking((r) => {
            const c = new Set(r);
            c.delete(ruleId);
            return c;
          });
          setRulesError(`Could not revoke the rule: ${toJunctureError(e).message}`);
        });
    },
    [transport], // loadRules only closes over transport
  );
  const revoke = (ruleId: string) => {
    setRevoking((r) => new Set(r).add(ruleId));
    revokeTimers.current.set(
      ruleId,
      setTimeout(() => commitRevoke(ruleId), REVOKE_UNDO_MS),
    );
  };
  const undoRevoke = (ruleId: string) => {
    const tm = revokeTimers.current.get(ruleId);
    if (tm !== undefined) clearTimeout(tm);
    revokeTimers.current.delete(ruleId);
    setRevoking((r) => {
      const c = new Set(r);
      c.delete(ruleId);
      return c;
    });
  };
  const flushRevokes = useCallback(() => {
    for (const id of [...revokeTimers.current.keys()]) commitRevoke(id);
  }, [commitRevoke]);
  useEffect(() => flushRevokes, [flushRevokes]); // unmount

  const dirty = isDirty(draft, view);

  /** The chip of a field: where its saved value comes from, or "not saved yet" while edited. */
  const chipOf = (f: SettingsField): Chip | undefined => {
    const src = view?.sources[f];
    if (!view || !draft || !src) return src;
    const a = draft[f];
    const b = view.settings[f];
    if (a !== b && !(typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b))) return 'edited';
    return displaySource(f, b, src);
  };

  /** Closes for good: the theme preview goes back to what is saved. */
  const close = () => {
    setConfirmClose(false);
    if (view) previewTheme(view.settings.theme);
    if (view && draft) setDraft(view.settings);
    flushRevokes();
    onClose();
  };
  /** Close, Esc: asks first when there are unsaved edits. */
  const requestClose = () => {
    if (dirty && tab === 'general') setConfirmClose(true);
    else if (dirty) {
      setTab('general');
      setConfirmClose(true);
    } else close();
  };
  useEffect(() => {
    if (confirmClose) keepEditingRef.current?.focus();
  }, [confirmClose]);

  const field = (f: SettingsField, label: string, control: (fid: string, describedBy: string | undefined) => ReactNode, help?: ReactNode) => {
    const fid = `${id}-${f}`;
    const shownSrc = chipOf(f);
    return (
      <SetField
        fid={fid}
        label={label}
        badge={shownSrc && <span className={`set-source src-${shownSrc}`}>{SOURCE_TEXT[shownSrc]}</span>}
        help={locked(f) ? `Set by ${ENV_VARS[f] ?? 'an environment variable'}; change it there and restart Juncture.` : help}
        error={fieldErrors[f]}
      >
        {(db) => control(fid, db)}
      </SetField>
    );
  };

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
        {tab === 'endpoints' && open && (
          <div role="tabpanel" id={`${id}-panel-endpoints`} aria-labelledby={`${id}-tab-endpoints`}>
            <EndpointSettings
              transport={transport}
              keyStorage={view?.keyStorage}
              onChanged={() => {
                if (!dirty) setReloadNonce((n) => n + 1);
              }}
            />
          </div>
        )}
        {tab === 'presets' && open && (
          <div role="tabpanel" id={`${id}-panel-presets`} aria-labelledby={`${id}-tab-presets`}>
            <PresetSettings transport={transport} />
          </div>
        )}
        {tab === 'mcp' && open && (
          <div role="tabpanel" id={`${id}-panel-mcp`} aria-labelledby={`${id}-tab-mcp`}>
            <McpSettings transport={transport} />
          </div>
        )}
        {tab === 'general' && (
          <div role="tabpanel" id={`${id}-panel-general`} aria-labelledby={`${id}-tab-general`}>
            {loadError && <p className="set-banner error">Could not load settings: {loadError}</p>}
            {draft && (
              <>
                <section aria-labelledby={`${id}-sec-model`}>
                  <h3 id={`${id}-sec-model`}>Model</h3>
                  {status?.detected && <p className="set-banner info">Detected: {status.detected}</p>}
                  {(locked('baseUrl') || locked('model')) && (
                    <div className="set-banner info set-env-note">
                      {draft.model === DEMO_MODEL ? (
                        <>
                          <strong>This is the offline demo.</strong> Juncture is talking to its built-in demo model (
                          <span className="mono">{DEMO_MODEL}</span>), which answers from a script without a network — try
                          “write a long essay”, “list files” or “write a note”. The endpoint and model below are set by the
                          demo’s environment (<span className="mono">make demo</span>). To use a real model, start Juncture
                          with <span className="mono">make run</span> or <span className="mono">make serve</span> and choose
                          it here.
                        </>
                      ) : (
                        <>
                          The endpoint and model are set by environment variables Juncture was started with (
                          <span className="mono">OPENAI_BASE_URL</span>, <span className="mono">OPENAI_API_KEY</span>,{' '}
                          <span className="mono">JUNCTURE_MODEL</span>). Change them there and restart Juncture, or start it
                          without them to choose here.
                        </>
                      )}{' '}
                      Test connection still checks the endpoint.
                    </div>
                  )}
                  {!locked('baseUrl') && (
                  <div className="set-field">
                    <div className="set-label-row">
                      <label htmlFor={`${id}-preset`}>Endpoint</label>
                    </div>
                    <select
                      id={`${id}-preset`}
                      value={preset}
                      disabled={locked('baseUrl')}
                      onChange={(e) => {
                        setPreset(e.target.value);
                        const p = PRESETS.find((x) => x.id === e.target.value);
                        if (p) set('baseUrl', p.url);
                      }}
                    >
                      {PRESETS.map((p) => (
                        <option key={p.id} value={p.id}>
                          {p.label}
                        </option>
                      ))}
                      <option value="custom">Custom (OpenAI-compatible)</option>
                    </select>
                  </div>
                  )}
                  {field('baseUrl', 'Base URL', (fid, db) => (
                    <input
                      id={fid}
                      type="url"
                      className="mono"
                      value={draft.baseUrl}
                      readOnly={locked('baseUrl')}
                      aria-describedby={db}
                      aria-invalid={fieldErrors.baseUrl ? true : undefined}
                      placeholder="https://host/v1"
                      onChange={(e) => {
                        set('baseUrl', e.target.value);
                        setPreset(presetOf(e.target.value));
                      }}
                    />
                  ))}
                  {field(
                    'apiKey',
                    'API key',
                    (fid, db) => (
                      <input
                        id={fid}
                        type="password"
                        autoComplete="off"
                        value={draft.apiKey}
                        readOnly={locked('apiKey')}
                        aria-describedby={db}
                        aria-invalid={fieldErrors.apiKey ? true : undefined}
                        placeholder="Not needed for local servers"
                        onChange={(e) => set('apiKey', e.target.value)}
                      />
                    ),
                    view?.keyState === 'unavailable'
                      ? keyUnavailableHelp(view?.keyStorage)
                      : `Stored ${keyStoragePhrase(view?.keyStorage)}; only the last characters are shown.`,
                  )}
                  {field('model', 'Model', (fid, db) => (
                    <>
                      <input
                        id={fid}
                        type="text"
                        list={`${id}-models`}
                        value={draft.model}
                        readOnly={locked('model')}
                        aria-describedby={db}
                        aria-invalid={fieldErrors.model ? true : undefined}
                        placeholder={test?.models.length ? 'Choose or type a model' : 'e.g. gpt-4o-mini, llama3.1'}
                        onChange={(e) => set('model', e.target.value)}
                      />
                      <datalist id={`${id}-models`}>
                        {(test?.models ?? []).map((m) => (
                          <option key={m} value={m} />
                        ))}
                      </datalist>
                    </>
                  ))}
                  {test && test.ok && test.models.length > 0 && !locked('model') && (
                    <div className="set-models" role="group" aria-label="Models offered by the endpoint">
                      {test.models.slice(0, 24).map((m) => (
                        <button
                          key={m}
                          type="button"
                          className={`set-model-chip${draft.model === m ? ' is-selected' : ''}`}
                          aria-pressed={draft.model === m}
                          onClick={() => set('model', m)}
                        >
                          {m}
                        </button>
                      ))}
                    </div>
                  )}
                  <div className="set-test">
                    <button type="button" className="btn" onClick={() => void runTest()} disabled={testing}>
                      {testing ? 'Testing…' : 'Test connection'}
                    </button>
                    <div aria-live="polite" className="set-test-result">
                      {test && (
                        <span className={test.ok ? 'ok' : 'fail'}>
                          {test.ok
                            ? test.models.length
                              ? `✓ Connected: ${modelsAvailable(test.models.length)}.`
                              : '✓ Connected, but the endpoint lists no models.'
                            : `✗ ${test.message || 'The endpoint did not answer as expected.'}`}
                        </span>
                      )}
                      {testError && <span className="fail">✗ {testError}</span>}
                    </div>
                  </div>
                </section>

                <section aria-labelledby={`${id}-ws`}>
                  <h3 id={`${id}-ws`}>Workspace and tools</h3>
                  {field(
                    'workspace',
                    'Workspace folder',
                    (fid, db) => (
                      <input
                        id={fid}
                        type="text"
                        className="mono"
                        value={draft.workspace}
                        readOnly={locked('workspace')}
                        aria-describedby={db}
                        aria-invalid={fieldErrors.workspace ? true : undefined}
                        placeholder="Default: the Juncture folder in your Documents"
                        onChange={(e) => set('workspace', e.target.value)}
                      />
                    ),
                    draft.workspace
                      ? 'File tools work inside this folder only.'
                      : 'File tools work inside this folder only. Left empty, it is the Juncture folder in your Documents folder (created when needed).',
                  )}
                  {field(
                    'loopGuard',
                    'Tool steps per turn (1–200)',
                    (fid, db) => (
                      <input
                        id={fid}
                        type="number"
                        min={1}
                        max={200}
                        step={1}
                        value={Number.isFinite(draft.loopGuard) ? draft.loopGuard : ''}
                        readOnly={locked('loopGuard')}
                        aria-describedby={db}
                        aria-invalid={fieldErrors.loopGuard ? true : undefined}
                        onChange={(e) => set('loopGuard', e.target.value === '' ? Number.NaN : Number(e.target.value))}
                      />
                    ),
                    'Juncture stops a turn that calls tools more often than this.',
                  )}
                  <div className={`set-field set-toggle${fieldErrors.enableWriteTools ? ' has-error' : ''}`}>
                    <label className="set-check">
                      <input
                        type="checkbox"
                        checked={draft.enableWriteTools}
                        disabled={locked('enableWriteTools')}
                        onChange={(e) => set('enableWriteTools', e.target.checked)}
                      />
                      Enable write tools (write files, run commands)
                      {chipOf('enableWriteTools') && (
                        <span className={`set-source src-${chipOf('enableWriteTools')}`}>{SOURCE_TEXT[chipOf('enableWriteTools')!]}</span>
                      )}
                    </label>
                    <p className="set-help">Each use still asks for your approval unless you chose “Always allow”.</p>
                    {fieldErrors.enableWriteTools && <p className="set-error">{fieldErrors.enableWriteTools}</p>}
                  </div>
                  <div className="set-field set-toggle">
                    <label className="set-check">
                      <input
                        type="checkbox"
                        checked={draft.modelAcceptsImages}
                        onChange={(e) => set('modelAcceptsImages', e.target.checked)}
                      />
                      The model accepts images
                    </label>
                    <p className="set-help">
                      Images a tool returns (from an MCP server) are then sent to the model; otherwise it reads a short description of each.
                    </p>
                  </div>
                </section>

                <section aria-labelledby={`${id}-perm`}>
                  <h3 id={`${id}-perm`}>Permissions</h3>
                  {rulesError && <p className="set-banner error">{rulesError}</p>}
                  {rules && !rules.length && <p className="set-help">No “Always allow” rules yet.</p>}
                  {rules && rules.length > 0 && (
                    <ul className="set-rules">
                      {rules.map((r) =>
                        revoking.has(r.id) ? (
                          <li key={r.id} className="is-revoked">
                            <span role="status">
                              <span className="set-rule-revoked">Revoked:</span> <s>{ruleText(r, catalog)}</s>
                            </span>
                            <button
                              type="button"
                              className="btn small"
                              onClick={() => undoRevoke(r.id)}
                              ref={(el) => {
                                if (el && document.activeElement === document.body) el.focus();
                              }}
                            >
                              Undo
                            </button>
                          </li>
                        ) : (
                          <li key={r.id}>
                            <span>
                              {ruleText(r, catalog)}
                              <span className="set-rule-date"> · {formatTime(r.createdAt)}</span>
                            </span>
                            <button type="button" className="btn small danger" onClick={(e) => {
                              revoke(r.id);
                              // The Undo button takes its place: keep the keyboard there.
                              const li = e.currentTarget.closest('li');
                              requestAnimationFrame(() => li?.querySelector<HTMLButtonElement>('button')?.focus());
                            }}>
                              Revoke
                            </button>
                          </li>
                        ),
                      )}
                    </ul>
                  )}
                </section>

                <section aria-labelledby={`${id}-look`}>
                  <h3 id={`${id}-look`}>Appearance and notifications</h3>
                  <fieldset className="set-field set-radios" disabled={locked('theme')}>
                    <legend>
                      Theme
                      {chipOf('theme') && chipOf('theme') !== 'default' && (
                        <span className={`set-source src-${chipOf('theme')}`}>{SOURCE_TEXT[chipOf('theme')!]}</span>
                      )}
                    </legend>
                    {(['system', 'light', 'dark'] as Theme[]).map((t) => (
                      <label key={t} className="set-check">
                        <input
                          type="radio"
                          name={`${id}-theme`}
                          checked={draft.theme === t}
                          onChange={() => {
                            set('theme', t);
                            previewTheme(t); // at once; Close without saving puts the saved one back
                          }}
                        />
                        {t === 'system' ? 'Match the system' : t === 'light' ? 'Light' : 'Dark'}
                      </label>
                    ))}
                  </fieldset>
                  <div className="set-field">
                    {notif === 'unsupported' ? (
                      <p className="set-help">System notifications are not available in this window.</p>
                    ) : notif === 'granted' ? (
                      <p className="set-help">Notifications are on: Juncture tells you when it needs a decision while in the background.</p>
                    ) : notif === 'denied' ? (
                      <p className="set-help">Notifications are blocked for Juncture in this browser’s settings.</p>
                    ) : (
                      <div className="set-test">
                        <button
                          type="button"
                          className="btn"
                          onClick={() => {
                            void Notification.requestPermission().then((p) => setNotif(p));
                          }}
                        >
                          Enable notifications
                        </button>
                        <span className="set-help">Get notified when an approval is needed while Juncture is in the background.</span>
                      </div>
                    )}
                  </div>
                </section>

                <ImportConversations transport={transport} />

                <section aria-labelledby={`${id}-about`}>
                  <h3 id={`${id}-about`}>About</h3>
                  <dl className="set-about">
                    <dt>Running as</dt>
                    <dd>{transport.kind === 'desktop' ? 'desktop app' : 'browser'}</dd>
                    <dt>Endpoint</dt>
                    <dd className="mono">{status?.endpoint || '—'}</dd>
                    <dt>Model</dt>
                    <dd className="mono">{status?.model || '—'}</dd>
                    {status?.problem && (
                      <>
                        <dt>Problem</dt>
                        <dd>{status.problem}</dd>
                      </>
                    )}
                  </dl>
                </section>
              </>
            )}
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
              void save();
            }}
          >
            Save
          </button>
        </footer>
      ) : (
        <footer className="settings-foot">
          <div className="settings-foot-msg" aria-live="polite">
            {saveError ? (
              <span className="set-error">{saveError}</span>
            ) : saved && !dirty ? (
              <span className="ok">Saved.</span>
            ) : dirty ? (
              <span className="set-unsaved">Unsaved changes</span>
            ) : null}
          </div>
          <button type="button" className="btn" onClick={requestClose}>
            Close
          </button>
          {tab === 'general' && (
            <button type="button" className="btn primary" onClick={() => void save()} disabled={!draft || saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
          )}
        </footer>
      )}
    </dialog>
  );
}
