import { SetField } from './SetField';
import { useId, useState, type ReactNode } from 'react';
import { EditorForm, ListEditor, useListEditor } from './ListEditor';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import type { Endpoint, ModelPrice } from '../../transport/endpoints';
import { isMasked, keyStoragePhrase, keyUnavailableHelp } from '../../transport/contract';
import type { KeyStorage, Provider } from '../../transport/contract.gen';
import { endpointsChanged, useEndpoints } from '../../hooks/useEndpoints';
import { urlProblem } from '../../lib/settingsForm';
import { modelsAvailable } from '../../lib/format';
import './EndpointSettings.css';
import { AlertLine } from '../../ui/AlertLine';

const SOURCE_TEXT: Record<Endpoint['source'], string> = {
  saved: 'saved',
  environment: 'from environment',
  detected: 'detected',
};

interface PriceRow {
  model: string;
  input: string;
  output: string;
}

/** The form's copy of an endpoint (numbers as typed). */
export interface EndpointDraft {
  id: string;
  name: string;
  baseUrl: string;
  apiKey: string;
  models: string;
  prices: PriceRow[];
  isDefault: boolean;
  readOnly: boolean;
  /** The saved key could not be read (a locked keychain); a save keeps it. */
  keyUnavailable?: boolean;
}

type FieldErrors = Partial<Record<'name' | 'baseUrl' | 'prices' | 'models', string>>;

export function draftOf(e: Endpoint | null): EndpointDraft {
  if (!e) return { id: '', name: '', baseUrl: '', apiKey: '', models: '', prices: [], isDefault: false, readOnly: false };
  return {
    id: e.id,
    name: e.name,
    baseUrl: e.baseUrl,
    apiKey: e.apiKey,
    models: e.models.join('\n'),
    prices: Object.entries(e.prices).map(([model, p]) => ({ model, input: String(p.inputPerMTok), output: String(p.outputPerMTok) })),
    isDefault: e.isDefault,
    readOnly: e.source !== 'saved',
    ...(e.keyState === 'unavailable' ? { keyUnavailable: true } : {}),
  };
}

/** Model names typed one per line or separated by commas. */
export function parseModels(text: string): string[] {
  const out: string[] = [];
  for (const m of text.split(/[\n,]/).map((s) => s.trim())) if (m && !out.includes(m)) out.push(m);
  return out;
}

/** The draft as SaveEndpoint takes it, or field errors (checked as Go checks them). */
export function endpointOf(d: EndpointDraft, source: Endpoint['source']): { endpoint: Endpoint } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const url = d.baseUrl.trim();
  if (!d.readOnly) {
    if (!url) errors.baseUrl = 'Enter the endpoint’s base URL, for example http://127.0.0.1:11434/v1.';
    else if (urlProblem(url)) errors.baseUrl = urlProblem(url);
    if (d.name.trim().length > 100) errors.name = 'Use a name of at most 100 characters.';
  }
  const prices: Record<string, ModelPrice> = {};
  for (const r of d.prices) {
    const model = r.model.trim();
    if (!model && !r.input.trim() && !r.output.trim()) continue;
    const input = r.input.trim() === '' ? 0 : Number(r.input);
    const output = r.output.trim() === '' ? 0 : Number(r.output);
    if (!model) errors.prices = 'Each price needs a model name.';
    else if (!Number.isFinite(input) || !Number.isFinite(output) || input < 0 || output < 0) {
      errors.prices = `The price of ${model} must be a number, zero or more (per million tokens).`;
    } else prices[model] = { inputPerMTok: input, outputPerMTok: output };
  }
  if (Object.keys(errors).length) return { errors };
  return {
    endpoint: {
      id: d.id,
      name: d.name.trim(),
      baseUrl: url,
      apiKey: d.apiKey,
      models: parseModels(d.models),
      prices,
      source,
      isDefault: d.isDefault,
      defaultModel: '',
    },
  };
}

interface TestResult {
  busy: boolean;
  ok?: boolean;
  text?: string;
  models?: string[];
}

/**
 * Settings › Endpoints: the OpenAI-compatible servers chats can use. Saved
 * ones are added, edited, tested, made the default and deleted here; the
 * environment's and detected ones are listed (only their prices can be set).
 * Every change is saved at once.
 */
/**
 * providers are the well-known servers offered to fill the base URL (Go's
 * config.Providers, from GetSettings).
 */
export function EndpointSettings({
  transport,
  onChanged,
  keyStorage,
  providers = [],
  locked = false,
}: {
  transport: Transport;
  onChanged?: () => void;
  keyStorage?: KeyStorage;
  providers?: readonly Provider[];
  /** A read-only copy of damaged data: listed and tested, not changed. */
  locked?: boolean | undefined;
}) {
  const id = useId();
  const { endpoints, error: loadError } = useEndpoints(transport);
  const ed = useListEditor<EndpointDraft, FieldErrors>();
  const { editing, errors } = ed;
  const [editingSource, setEditingSource] = useState<Endpoint['source']>('saved');
  // One test per endpoint, each with its own busy and result: not one async slot.
  const [tests, setTests] = useState<Record<string, TestResult>>({});

  const changed = () => {
    endpointsChanged();
    onChanged?.();
  };

  const test = (epId: string) => {
    setTests((t) => ({ ...t, [epId]: { busy: true } }));
    transport
      .call('ListModels', epId)
      .then((models) =>
        setTests((t) => ({
          ...t,
          [epId]: { busy: false, ok: true, models, text: models.length ? `✓ Connected: ${modelsAvailable(models.length)}.` : '✓ Connected, but the endpoint lists no models.' },
        })),
      )
      .catch((e: unknown) => setTests((t) => ({ ...t, [epId]: { busy: false, ok: false, text: `✗ ${toJunctureError(e).message}` } })));
  };

  const edit = (e: Endpoint | null) => {
    ed.edit(draftOf(e));
    setEditingSource(e?.source ?? 'saved');
  };

  const save = async () => {
    if (!editing) return;
    const r = endpointOf(editing, editingSource);
    if ('errors' in r) {
      ed.invalid(r.errors);
      return;
    }
    await ed.save(
      async () => {
        const saved = await transport.call('SaveEndpoint', r.endpoint);
        return () => {
          changed();
          if (saved.source === 'saved') test(saved.id);
        };
      },
      (err) => {
        const fe: FieldErrors = {};
        for (const [k, v] of Object.entries(err.details ?? {})) if (k === 'name' || k === 'baseUrl' || k === 'prices') fe[k] = v;
        return fe;
      },
    );
  };

  const makeDefault = (e: Endpoint) =>
    ed.act(() => transport.call('SaveEndpoint', { ...e, isDefault: true }), changed, (m) => `Could not make ${e.name} the default: ${m}`);

  const remove = (e: Endpoint) => {
    ed.setConfirm(null);
    ed.act(() => transport.call('DeleteEndpoint', e.id), changed, (m) => `Could not delete ${e.name}: ${m}`);
  };

  const set = <K extends keyof EndpointDraft>(k: K, v: EndpointDraft[K]) => {
    ed.update((d) => ({ ...d, [k]: v }));
    if (k in errors) ed.setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const setPrice = (i: number, p: Partial<PriceRow>) => {
    ed.update((d) => ({ ...d, prices: d.prices.map((r, j) => (j === i ? { ...r, ...p } : r)) }));
    ed.setErrors((e) => ({ ...e, prices: undefined }));
  };

  const field = (k: 'name' | 'baseUrl', label: string, input: (fid: string, describedBy: string | undefined) => ReactNode, help?: string) => {
    const fid = `${id}-${k}`;
    return (
      <SetField fid={fid} label={label} help={help} error={errors[k]}>
        {(db) => input(fid, db)}
      </SetField>
    );
  };

  // The Server select shows the well-known server the base URL is, or Custom.
  const knownUrl = (editing && providers.find((k) => k.url === editing.baseUrl.replace(/\/+$/, ''))?.url) ?? '';
  const form = editing && (
    <EditorForm
      label={editing.id ? `Edit ${editing.name}` : 'Add an endpoint'}
      title={editing.readOnly ? `Prices of ${editing.name}` : editing.id ? `Edit ${editing.name}` : 'Add an endpoint'}
      formError={ed.formError}
      saving={ed.saving}
      saveLabel="Save endpoint"
      onSave={() => void save()}
      onCancel={ed.cancel}
    >
      {editing.readOnly && (
        <p className="set-help">
          {editingSource === 'environment'
            ? 'This endpoint is set by OPENAI_BASE_URL; only its prices are kept here.'
            : 'This server was found on this machine; only its prices are kept here.'}
        </p>
      )}
      {!editing.readOnly && (
        <>
          {field('name', 'Name', (fid, db) => (
            <input id={fid} type="text" value={editing.name} aria-describedby={db} placeholder="Named after the host when left empty" onChange={(e) => set('name', e.currentTarget.value)} />
          ))}
          <div className="set-field">
            <div className="set-label-row">
              <label htmlFor={`${id}-known`}>Server</label>
            </div>
            <select
              id={`${id}-known`}
              value={knownUrl}
              onChange={(e) => {
                const k = providers.find((x) => x.url === e.currentTarget.value);
                if (k) {
                  set('baseUrl', k.url);
                  if (!editing.name.trim()) set('name', k.name);
                } else {
                  // "Custom" leaves the URL as it is. Nothing renders again,
                  // and Preact (unlike React) leaves a refused choice on
                  // screen: put the select back on the URL's server.
                  e.currentTarget.value = knownUrl;
                }
              }}
            >
              <option value="">Custom (OpenAI-compatible)</option>
              {providers.map((k) => (
                <option key={k.url} value={k.url}>
                  {k.label}
                </option>
              ))}
            </select>
          </div>
          {field('baseUrl', 'Base URL', (fid, db) => (
            <input
              id={fid}
              type="url"
              className="mono"
              value={editing.baseUrl}
              aria-describedby={db}
              aria-invalid={errors.baseUrl ? true : undefined}
              placeholder="https://host/v1"
              onChange={(e) => set('baseUrl', e.currentTarget.value)}
            />
          ))}
          <div className="set-field">
            <div className="set-label-row">
              <label htmlFor={`${id}-key`}>API key</label>
            </div>
            <input
              id={`${id}-key`}
              type="password"
              autoComplete="off"
              value={editing.apiKey}
              aria-describedby={`${id}-key-help`}
              placeholder="Not needed for local servers"
              onChange={(e) => set('apiKey', e.currentTarget.value)}
            />
            <p className="set-help" id={`${id}-key-help`}>
              {editing.keyUnavailable && !editing.apiKey
                ? keyUnavailableHelp(keyStorage)
                : isMasked(editing.apiKey)
                ? `Stored ${keyStoragePhrase(keyStorage)}; only the last characters are shown. Type a new key to replace it.`
                : `Stored ${keyStoragePhrase(keyStorage)}; never shown again in full.`}
            </p>
          </div>
          <div className="set-field">
            <div className="set-label-row">
              <label htmlFor={`${id}-models`}>Models</label>
            </div>
            <textarea
              id={`${id}-models`}
              className="mono"
              rows={3}
              value={editing.models}
              aria-describedby={`${id}-models-help`}
              placeholder={'gpt-4o-mini\nllama3.1'}
              onChange={(e) => set('models', e.currentTarget.value)}
            />
            <p className="set-help" id={`${id}-models-help`}>
              One per line, optional: the model picker also asks the endpoint. The first is what a chat on this endpoint uses when it picks none.
            </p>
            {editing.id && tests[editing.id]?.models?.length ? (
              <div className="set-models" role="group" aria-label="Models the endpoint offers">
                {tests[editing.id]!.models!.slice(0, 40).map((m) => {
                  const have = parseModels(editing.models).includes(m);
                  return (
                    <button
                      key={m}
                      type="button"
                      className={`set-model-chip${have ? ' is-selected' : ''}`}
                      aria-pressed={have}
                      onClick={() => {
                        const list = parseModels(editing.models);
                        set('models', (have ? list.filter((x) => x !== m) : [...list, m]).join('\n'));
                      }}
                    >
                      {m}
                    </button>
                  );
                })}
              </div>
            ) : null}
          </div>
          <label className="set-check">
            <input type="checkbox" checked={editing.isDefault} disabled={draftIsDefault(endpoints, editing.id)} onChange={(e) => set('isDefault', e.currentTarget.checked)} />
            The default endpoint (new chats, and chats that choose none; Settings → General shows it)
          </label>
        </>
      )}
      <fieldset className={`set-field ep-prices${errors.prices ? ' has-error' : ''}`}>
        <legend>Prices (optional, per million tokens)</legend>
        {editing.prices.length > 0 && (
          <table className="ep-price-table">
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Input</th>
                <th scope="col">Output</th>
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {editing.prices.map((r, i) => (
                <tr key={i}>
                  <td>
                    <input
                      type="text"
                      className="mono"
                      aria-label={`Model of price ${i + 1}`}
                      list={`${id}-price-models`}
                      value={r.model}
                      onChange={(e) => setPrice(i, { model: e.currentTarget.value })}
                    />
                  </td>
                  <td>
                    <input type="number" min={0} step="any" aria-label={`Input price of ${r.model || `price ${i + 1}`}`} value={r.input} onChange={(e) => setPrice(i, { input: e.currentTarget.value })} />
                  </td>
                  <td>
                    <input type="number" min={0} step="any" aria-label={`Output price of ${r.model || `price ${i + 1}`}`} value={r.output} onChange={(e) => setPrice(i, { output: e.currentTarget.value })} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn small subtle"
                      aria-label={`Remove the price of ${r.model || `price ${i + 1}`}`}
                      onClick={() => set('prices', editing.prices.filter((_, j) => j !== i))}
                    >
                      ✕
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <datalist id={`${id}-price-models`}>
          {parseModels(editing.models).map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <div>
          <button type="button" className="btn small" onClick={() => set('prices', [...editing.prices, { model: parseModels(editing.models)[editing.prices.length] ?? '', input: '', output: '' }])}>
            Add a price
          </button>
        </div>
        <p className="set-help">In your endpoint’s currency; chats show their cost from it.</p>
        <AlertLine className="set-error" text={errors.prices} />
      </fieldset>
    </EditorForm>
  );

  return (
    <ListEditor
      locked={locked}
      title="Endpoints"
      help={
        <p className="set-help">
          Each chat can run on its own endpoint and model (the model button in the chat’s header). The default endpoint is the one Settings → General
          edits; the environment’s wins when it is set.
        </p>
      }
      loadError={loadError && `Could not load the endpoints: ${loadError}`}
      actionError={ed.actionError}
      items={endpoints}
      empty="No endpoint yet."
      keyOf={(e) => e.id}
      nameOf={(e) => e.name}
      rowClass={(e) => `ep-row${e.isDefault ? ' is-default' : ''}`}
      body={(e) => {
        const prices = Object.keys(e.prices).length;
        return (
          <>
            <div className="ep-head">
              <span className="ep-name">{e.name}</span>
              {e.isDefault && <span className="set-source src-saved ep-default">default</span>}
              {e.source !== 'saved' && <span className={`set-source src-${e.source}`}>{SOURCE_TEXT[e.source]}</span>}
            </div>
            <div className="ep-meta">
              <span className="mono ep-url">{e.baseUrl}</span>
              {e.apiKey && <span className="mono">key {e.apiKey}</span>}
              {e.defaultModel && <span>model {e.defaultModel}</span>}
              {e.models.length > 1 && <span>{e.models.length} models listed</span>}
              {prices > 0 && <span>{prices === 1 ? '1 price' : `${prices} prices`}</span>}
            </div>
          </>
        );
      }}
      actions={(e) => (
        <>
          <button type="button" className="btn small" onClick={() => test(e.id)} disabled={tests[e.id]?.busy}>
            {tests[e.id]?.busy ? 'Testing…' : 'Test connection'}
          </button>
          {!locked && (
            <button type="button" className="btn small" onClick={() => edit(e)} aria-label={`${e.source === 'saved' ? 'Edit' : 'Prices of'} ${e.name}`}>
              {e.source === 'saved' ? 'Edit' : 'Prices'}
            </button>
          )}
          {e.source === 'saved' && !e.isDefault && !locked && (
            <button type="button" className="btn small" onClick={() => makeDefault(e)}>
              Make default
            </button>
          )}
        </>
      )}
      canDelete={(e) => e.source === 'saved'}
      deleteText={(e) => (
        <>
          Chats that use it will use the default endpoint
          {e.isDefault ? ', and Settings → General’s endpoint is cleared' : ''}.
        </>
      )}
      onDelete={remove}
      after={(e) => {
        const t = tests[e.id];
        return <div className="set-test-result" aria-live="polite">{t?.text && <span className={t.ok ? 'ok' : 'fail'}>{t.text}</span>}</div>;
      }}
      confirm={ed.confirm}
      onConfirm={ed.setConfirm}
      editingKey={editing ? editing.id : null}
      form={form}
      addLabel="Add an endpoint"
      onAdd={() => edit(null)}
    />
  );
}

/** The endpoint is the default already (its box cannot be unticked: make another one the default instead). */
function draftIsDefault(endpoints: Endpoint[] | null, epId: string): boolean {
  return !!epId && !!endpoints?.find((e) => e.id === epId)?.isDefault;
}
