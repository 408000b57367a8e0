import { useState } from 'react';
import type { Transport } from '../../transport';
import type { Status, Theme } from '../../transport/contract';
import { notificationsSupported } from '../../hooks/useAttention';
import { previewTheme } from '../../lib/theme';
import { LOOP_GUARD_RANGE } from '../../lib/settingsForm';
import { ImportConversations } from '../import/ImportConversations';
import { generalField, numberControl, SourceChip, textControl } from './generalField';
import { ModelSection, type KnownServer } from './ModelSection';
import type { GeneralSettings } from './useGeneralSettings';

export interface GeneralTabProps {
  id: string;
  transport: Transport;
  status: Status | null;
  form: GeneralSettings;
  presets: readonly KnownServer[];
  presetOf: (url: string) => string;
}

/** Settings › General: the default endpoint and model, workspace and tools, appearance, import, about. */
export function GeneralTab({ id, transport, status, form, presets, presetOf }: GeneralTabProps) {
  const { draft, locked, set, fieldErrors } = form;
  const [notif, setNotif] = useState<NotificationPermission | 'unsupported'>(() =>
    notificationsSupported() ? Notification.permission : 'unsupported',
  );
  const field = generalField(id, form);
  return (
    <>
      {form.loadError && <p className="set-banner error">Could not load settings: {form.loadError}</p>}
      {draft && (
        <>
          <ModelSection id={id} form={form} status={status} presets={presets} presetOf={presetOf} />

          <section aria-labelledby={`${id}-ws`}>
            <h3 id={`${id}-ws`}>Workspace and tools</h3>
            {field(
              'workspace',
              'Workspace folder',
              textControl(form, 'workspace', { className: 'mono', placeholder: 'Default: the Juncture folder in your Documents' }),
              draft.workspace
                ? 'File tools work inside this folder only.'
                : 'File tools work inside this folder only. Left empty, it is the Juncture folder in your Documents folder (created when needed).',
            )}
            {field(
              'loopGuard',
              'Tool steps per turn (1–200)',
              numberControl(form, 'loopGuard', LOOP_GUARD_RANGE),
              'Juncture stops a turn that calls tools more often than this.',
            )}
            <div className={`set-field set-toggle${fieldErrors.enableWriteTools ? ' has-error' : ''}`}>
              <label className="set-check">
                <input
                  type="checkbox"
                  checked={draft.enableWriteTools}
                  disabled={locked('enableWriteTools')}
                  onChange={(e) => set('enableWriteTools', e.currentTarget.checked)}
                />
                Enable write tools (write files, run commands)
                <SourceChip form={form} f="enableWriteTools" />
              </label>
              <p className="set-help">Each use still asks for your approval unless you chose “Always allow”.</p>
              {fieldErrors.enableWriteTools && <p className="set-error">{fieldErrors.enableWriteTools}</p>}
            </div>
            <div className="set-field set-toggle">
              <label className="set-check">
                <input
                  type="checkbox"
                  checked={draft.modelAcceptsImages}
                  disabled={locked('modelAcceptsImages')}
                  onChange={(e) => set('modelAcceptsImages', e.currentTarget.checked)}
                />
                The model accepts images
              </label>
              <p className="set-help">
                Images you attach to a message, and images a tool returns (from an MCP server), are then sent to the model. Off: attached
                images cannot be sent, and the model reads a short description of each tool image instead. Juncture knows common vision
                models (GPT-4o, GPT-4.1, GPT-5, Claude 3 and 4, Gemini, LLaVA, Qwen-VL, Llama 3.2 Vision, Pixtral, Gemma 3, MiniCPM-V,
                Moondream…) and offers to turn this on when you attach an image.
              </p>
            </div>
          </section>

          <section aria-labelledby={`${id}-look`}>
            <h3 id={`${id}-look`}>Appearance and notifications</h3>
            <fieldset className="set-field set-radios" disabled={locked('theme')}>
              <legend>
                Theme
                <SourceChip form={form} f="theme" hideDefault />
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

          {!status?.readOnly && <ImportConversations transport={transport} />}

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
    </>
  );
}
