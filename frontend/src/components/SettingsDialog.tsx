import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { Transport } from '../transport';
import { toJunctureError } from '../transport';
import type {
  PermissionRule,
  SettingSource,
  Settings,
  SettingsField,
  SettingsView,
  Status,
  TestConnectionResult,
  Theme,
} from '../transport/contract';
import { isSettingsField } from '../transport/contract';
import { notificationsSupported } from '../hooks/useAttention';
import { useMcpServers, type McpCatalog } from '../hooks/useMcpServers';
import { McpSettings } from './McpSettings';
import { formatTime } from '../lib/format';
import { IconClose } from './icons';
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

const SOURCE_TEXT: Record<SettingSource, string> = {
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
      ) : (
        `${r.scope} ${r.pattern ?? ''}`
      )}
    </>
  );
}

type Tab = 'general' | 'mcp';
const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'general', label: 'General' },
  { id: 'mcp', label: 'Tool servers (MCP)' },
];

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
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<SettingsField, string>>>({});
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
    setFieldErrors({});
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
  }, [open, transport]); // loadRules only closes over transport

  const locked = (f: SettingsField) => view?.sources[f] === 'environment';

  const set = <K extends SettingsField>(k: K, v: Settings[K]) => {
    setDraft((d) => (d ? { ...d, [k]: v } : d));
    setSaved(false);
    setFieldErrors((e) => {
      if (!e[k]) return e;
      const c = { ...e };
      delete c[k];
      return c;
    });
  };

  const save = async () => {
    if (!draft) return;
    if (!Number.isInteger(draft.loopGuard) || draft.loopGuard < 1 || draft.loopGuard > 200) {
      setFieldErrors({ loopGuard: 'Enter a whole number from 1 to 200.' });
      return;
    }
    setSaving(true);
    setSaveError(null);
    try {
      const v = await transport.call('SaveSettings', draft);
      setView(v);
      setDraft(v.settings);
      setFieldErrors({});
      setSaved(true);
      onSaved(v);
    } catch (e) {
      const err = toJunctureError(e);
      const fe: Partial<Record<SettingsField, string>> = {};
      const other: string[] = [];
      for (const [k, msg] of Object.entries(err.details ?? {})) {
        if (isSettingsField(k)) fe[k] = msg;
        else other.push(`${k}: ${msg}`);
      }
      setFieldErrors(fe);
      setSaveError(
        err.code === 'invalid-settings'
          ? `Nothing was saved. ${Object.keys(fe).length ? 'Fix the fields marked below.' : err.message}${other.length ? ` ${other.join('; ')}` : ''}`
          : `Nothing was saved: ${err.message}`,
      );
    } finally {
      setSaving(false);
    }
  };

  const runTest = async () => {
    if (!draft) return;
    setTesting(true);
    setTest(null);
    setTestError(null);
    try {
      const loopGuard = Number.isInteger(draft.loopGuard) ? draft.loopGuard : 25;
      setTest(await transport.call('TestConnection', { ...draft, loopGuard }));
    } catch (e) {
      setTestError(toJunctureError(e).message);
    } finally {
      setTesting(false);
    }
  };

  const revoke = async (ruleId: string) => {
    try {
      await transport.call('RevokePermissionRule', ruleId);
      loadRules();
    } catch (e) {
      setRulesError(toJunctureError(e).message);
    }
  };

  const field = (f: SettingsField, label: string, control: (fid: string, describedBy: string | undefined) => ReactNode, help?: ReactNode) => {
    const fid = `${id}-${f}`;
    const src = view?.sources[f];
    const err = fieldErrors[f];
    const describedBy = [err ? `${fid}-err` : '', help || locked(f) ? `${fid}-help` : ''].filter(Boolean).join(' ') || undefined;
    return (
      <div className={`set-field${err ? ' has-error' : ''}`}>
        <div className="set-label-row">
          <label htmlFor={fid}>{label}</label>
          {src && <span className={`set-source src-${src}`}>{SOURCE_TEXT[src]}</span>}
        </div>
        {control(fid, describedBy)}
        {(help || locked(f)) && (
          <p className="set-help" id={`${fid}-help`}>
            {locked(f) ? 'Set by an environment variable; change it there and restart Juncture.' : help}
          </p>
        )}
        {err && (
          <p className="set-error" id={`${fid}-err`} role="alert">
            {err}
          </p>
        )}
      </div>
    );
  };

  return (
    <dialog
      ref={ref}
      className="settings"
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className="settings-head">
        <h2 id={`${id}-title`}>Settings</h2>
        <button type="button" className="icon-btn" aria-label="Close settings" onClick={onClose}>
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
      <div className="settings-body">
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
                <section aria-labelledby={`${id}-model`}>
                  <h3 id={`${id}-model`}>Model</h3>
                  {status?.detected && <p className="set-banner info">Detected: {status.detected}</p>}
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
                    'Stored by Juncture; only the last characters are shown.',
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
                  {test && test.models.length > 0 && !locked('model') && (
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
                          {test.ok ? '✓ ' : '✗ '}
                          {test.message || (test.ok ? 'Connected.' : 'The endpoint did not answer as expected.')}
                          {test.ok && test.models.length > 0 && ` ${test.models.length} model${test.models.length === 1 ? '' : 's'} available.`}
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
                        placeholder="/home/you/projects"
                        onChange={(e) => set('workspace', e.target.value)}
                      />
                    ),
                    'File tools work inside this folder only.',
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
                      {view?.sources.enableWriteTools && (
                        <span className={`set-source src-${view.sources.enableWriteTools}`}>
                          {SOURCE_TEXT[view.sources.enableWriteTools]}
                        </span>
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
                      {rules.map((r) => (
                        <li key={r.id}>
                          <span>
                            {ruleText(r, catalog)}
                            <span className="set-rule-date"> · {formatTime(r.createdAt)}</span>
                          </span>
                          <button type="button" className="btn small danger" onClick={() => void revoke(r.id)}>
                            Revoke
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                </section>

                <section aria-labelledby={`${id}-look`}>
                  <h3 id={`${id}-look`}>Appearance and notifications</h3>
                  <fieldset className="set-field set-radios" disabled={locked('theme')}>
                    <legend>
                      Theme
                      {view?.sources.theme && view.sources.theme !== 'default' && (
                        <span className={`set-source src-${view.sources.theme}`}>{SOURCE_TEXT[view.sources.theme]}</span>
                      )}
                    </legend>
                    {(['system', 'light', 'dark'] as Theme[]).map((t) => (
                      <label key={t} className="set-check">
                        <input type="radio" name={`${id}-theme`} checked={draft.theme === t} onChange={() => set('theme', t)} />
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
      <footer className="settings-foot">
        <div className="settings-foot-msg" aria-live="polite">
          {saveError ? <span className="set-error">{saveError}</span> : saved ? <span className="ok">Saved.</span> : null}
        </div>
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
        {tab === 'general' && (
          <button type="button" className="btn primary" onClick={() => void save()} disabled={!draft || saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        )}
      </footer>
    </dialog>
  );
}
