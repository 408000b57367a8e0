import { keyStoragePhrase, keyUnavailableHelp } from '../../transport/contract';
import type { Status } from '../../transport/contract';
import { modelsAvailable } from '../../lib/format';
import { DEMO_MODEL } from '../../lib/settingsForm';
import { generalField, textControl } from './generalField';
import type { GeneralSettings } from './useGeneralSettings';

/** A known server the Endpoint menu fills the base URL from. */
export interface KnownServer {
  id: string;
  label: string;
  url: string;
}

/** Settings › General › Model: the default endpoint, its key and model, and Test connection. */
export function ModelSection({
  id,
  form,
  status,
  presets,
  presetOf,
}: {
  id: string;
  form: GeneralSettings;
  status: Status | null;
  presets: readonly KnownServer[];
  presetOf: (url: string) => string;
}) {
  const { draft, view, locked, set, test } = form;
  const field = generalField(id, form);
  if (!draft) return null;
  return (
    <section aria-labelledby={`${id}-sec-model`}>
      <h3 id={`${id}-sec-model`}>Model</h3>
      {status?.detected && <p className="set-banner info">Detected: {status.detected}</p>}
      {(form.fromEnvironment('baseUrl') || form.fromEnvironment('model')) && (
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
      {/* Shown, disabled, in a read-only copy; the environment's URL has no choice to show. */}
      {!form.fromEnvironment('baseUrl') && (
        <div className="set-field">
          <div className="set-label-row">
            <label htmlFor={`${id}-preset`}>Endpoint</label>
          </div>
          <select
            id={`${id}-preset`}
            value={form.preset}
            disabled={locked('baseUrl')}
            onChange={(e) => {
              form.setPreset(e.currentTarget.value);
              const p = presets.find((x) => x.id === e.currentTarget.value);
              if (p) set('baseUrl', p.url);
            }}
          >
            {presets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
            <option value="custom">Custom (OpenAI-compatible)</option>
          </select>
        </div>
      )}
      {field(
        'baseUrl',
        'Base URL',
        textControl(form, 'baseUrl', {
          type: 'url',
          className: 'mono',
          placeholder: 'https://host/v1',
          onChange: (e) => {
            set('baseUrl', e.currentTarget.value);
            form.setPreset(presetOf(e.currentTarget.value));
          },
        }),
      )}
      {field(
        'apiKey',
        'API key',
        textControl(form, 'apiKey', { type: 'password', autoComplete: 'off', placeholder: 'Not needed for local servers' }),
        view?.keyState === 'unavailable'
          ? keyUnavailableHelp(view?.keyStorage)
          : `Stored ${keyStoragePhrase(view?.keyStorage)}; only the last characters are shown.`,
      )}
      {field('model', 'Model', (fid, db) => (
        <>
          {textControl(form, 'model', {
            list: `${id}-models`,
            placeholder: test?.models.length ? 'Choose or type a model' : 'e.g. gpt-4o-mini, llama3.1',
          })(fid, db)}
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
        <button type="button" className="btn" onClick={() => void form.runTest()} disabled={form.testing}>
          {form.testing ? 'Testing…' : 'Test connection'}
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
          {form.testError && <span className="fail">✗ {form.testError}</span>}
        </div>
      </div>
    </section>
  );
}
