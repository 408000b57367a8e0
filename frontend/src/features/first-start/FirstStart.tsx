import './FirstStart.css';
import { useContext, useEffect, useId, useState } from 'react';
import { TransportContext, toJunctureError } from '../../transport';
import type { Settings, Status } from '../../transport/contract';
import { PROVIDERS } from './providers';
import { endpointsChanged } from '../../hooks/useEndpoints';
import { AlertLine } from '../../ui/AlertLine';
import { unlisted } from '../../ui/unlisted';

type Transport = NonNullable<React.ContextType<typeof TransportContext>>;

/** Saves baseUrl/apiKey/model as the default endpoint, keeping every other setting. */
async function saveEndpoint(transport: Transport, baseUrl: string, apiKey: string, model: string): Promise<void> {
  const view = await transport.call('GetSettings');
  const next: Settings = { ...view.settings, baseUrl, apiKey, model };
  await transport.call('SaveSettings', next);
}

/**
 * The options of a model select: the server's models, then each of `keep`
 * the server does not list (the model in force, the one chosen), labelled
 * as such, so the box never shows a blank or another model than the one
 * that will be saved.
 */
function ModelOptions({ models, keep }: { models: readonly string[]; keep: readonly string[] }) {
  return (
    <>
      {models.map((m) => (
        <option key={m} value={m}>
          {m}
        </option>
      ))}
      {unlisted(models, ...keep).map((m) => (
        <option key={`unlisted:${m}`} value={m}>
          {m ? `${m} (not listed by the server)` : 'No model chosen'}
        </option>
      ))}
    </>
  );
}

async function probe(transport: Transport, baseUrl: string, apiKey: string): Promise<{ ok: boolean; message: string; models: string[] }> {
  const view = await transport.call('GetSettings');
  return transport.call('TestConnection', { ...view.settings, baseUrl, apiKey, model: '' });
}

interface Found {
  name: string;
  baseUrl: string;
  models: string[];
}

async function localServers(transport: Transport): Promise<Found[]> {
  const eps = await transport.call('ListEndpoints');
  return eps
    .filter((e) => e.source === 'detected' && e.models.length > 0)
    .map((e) => ({ name: e.name, baseUrl: e.baseUrl, models: e.models }));
}

/**
 * The first start with nothing configured: the local servers found on this
 * computer with their models, a provider with a key and Test connection, or
 * the offline demo (served by the app itself).
 * Choosing one saves it as the default endpoint; the window's status then
 * says a model is configured and the chat opens.
 */
export function ConnectModel({ problem, onOpenSettings }: { problem?: string | undefined; onOpenSettings?: (() => void) | undefined }) {
  const transport = useContext(TransportContext);
  const id = useId();
  const [local, setLocal] = useState<Found[] | null>(null);
  const [looking, setLooking] = useState(false);
  const [provider, setProvider] = useState(PROVIDERS[0]!.id);
  const [customUrl, setCustomUrl] = useState('');
  const [key, setKey] = useState('');
  const [models, setModels] = useState<string[]>([]);
  const [model, setModel] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The app's own probe of the local servers (ListEndpoints lists those
  // that answer, with their models).
  const lookLocal = async () => {
    if (!transport) return;
    setLooking(true);
    try {
      setLocal(await localServers(transport));
    } catch {
      setLocal([]);
    }
    setLooking(false);
  };
  useEffect(() => {
    void lookLocal();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [transport]);

  if (!transport) return null;
  const p = PROVIDERS.find((x) => x.id === provider) ?? PROVIDERS[0]!;
  const baseUrl = p.id === 'custom' ? customUrl.trim() : p.baseUrl;

  const test = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await probe(transport, baseUrl, key.trim());
      setResult({ ok: r.ok, message: r.message });
      setModels(r.models);
      setModel(r.models[0] ?? '');
    } catch (e) {
      setError(toJunctureError(e).message);
    } finally {
      setBusy(false);
    }
  };
  const save = async (url: string, apiKey: string, m: string) => {
    setBusy(true);
    setError(null);
    try {
      await saveEndpoint(transport, url, apiKey, m);
      endpointsChanged();
    } catch (e) {
      setError(toJunctureError(e).message);
    } finally {
      setBusy(false);
    }
  };

  // The offline demo: the app serves it and makes it the default endpoint
  // ("Offline demo"); the status event then opens the chat.
  const demo = async () => {
    setBusy(true);
    setError(null);
    try {
      await transport.call('StartDemo');
      endpointsChanged(); // the model picker shows the demo, selected
    } catch (e) {
      setError(toJunctureError(e).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="thread-empty is-setup" role="region" aria-label="Set up a model">
      <h2>Connect a model to start</h2>
      {problem && <p className="thread-empty-problem">{problem}</p>}
      <div className="first-start">
        <fieldset aria-labelledby={`${id}-local`}>
          <legend id={`${id}-local`}>On this computer</legend>
          {local === null || looking ? (
            <p className="first-start-muted">Looking for Ollama and LM Studio…</p>
          ) : local.length === 0 ? (
            <div className="first-start-row">
              <p className="first-start-muted">No Ollama or LM Studio is running here.</p>
              <button type="button" className="btn small subtle" onClick={() => void lookLocal()}>
                Look again
              </button>
            </div>
          ) : (
            <ul className="first-start-local">
              {local.map((s) => (
                <LocalServer key={s.baseUrl} server={s} busy={busy} onUse={(m) => void save(s.baseUrl, '', m)} />
              ))}
            </ul>
          )}
        </fieldset>

        <fieldset>
          <legend>A provider</legend>
          <div className="first-start-providers" role="radiogroup" aria-label="Provider">
            {PROVIDERS.map((x) => (
              <label key={x.id} className={x.id === provider ? 'is-selected' : ''}>
                <input
                  type="radio"
                  name={`${id}-provider`}
                  value={x.id}
                  checked={x.id === provider}
                  onChange={() => {
                    setProvider(x.id);
                    setResult(null);
                    setModels([]);
                  }}
                />
                {x.name}
              </label>
            ))}
          </div>
          {p.id === 'custom' && (
            <div className="first-start-field">
              <label htmlFor={`${id}-url`}>Server URL</label>
              <input id={`${id}-url`} type="url" className="mono" placeholder="http://127.0.0.1:8080/v1" value={customUrl} onChange={(e) => setCustomUrl(e.currentTarget.value)} />
            </div>
          )}
          <div className="first-start-field">
            <label htmlFor={`${id}-key`}>API key</label>
            <input id={`${id}-key`} type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.currentTarget.value)} />
            <span className="first-start-muted">{p.keyHint} It is kept in your system keychain.</span>
          </div>
          <div className="first-start-row">
            <button type="button" className="btn" disabled={busy || !baseUrl} onClick={() => void test()}>
              Test connection
            </button>
            {result && (
              <span className={result.ok ? 'first-start-ok' : 'first-start-error'} role="status">
                {result.message}
              </span>
            )}
          </div>
          {models.length > 0 && (
            <div className="first-start-row">
              <label htmlFor={`${id}-model`}>Model</label>
              <select id={`${id}-model`} value={model} onChange={(e) => setModel(e.currentTarget.value)}>
                <ModelOptions models={models} keep={[model]} />
              </select>
              <button type="button" className="btn primary" disabled={busy || !model} onClick={() => void save(baseUrl, key.trim(), model)}>
                Use {p.id === 'custom' ? 'this server' : p.name}
              </button>
            </div>
          )}
        </fieldset>
        <fieldset aria-labelledby={`${id}-demo`}>
          <legend id={`${id}-demo`}>No model yet?</legend>
          <div className="first-start-row">
            <button type="button" className="btn" disabled={busy} onClick={() => void demo()}>
              Try the offline demo
            </button>
            <span className="first-start-muted">Scripted answers, no network — say hello to see what it can do.</span>
          </div>
        </fieldset>
        {onOpenSettings && (
          <div className="first-start-row">
            <button type="button" className="btn subtle" onClick={onOpenSettings}>
              Open Settings
            </button>
          </div>
        )}
        <AlertLine className="first-start-error" text={error} />
      </div>
    </div>
  );
}

function LocalServer({ server, busy, onUse }: { server: Found; busy: boolean; onUse: (model: string) => void }) {
  const id = useId();
  const [model, setModel] = useState(server.models[0] ?? '');
  return (
    <li className="first-start-row">
      <strong>{server.name}</strong>
      <span className="mono first-start-muted">{server.baseUrl}</span>
      <label htmlFor={id} className="visually-hidden">
        {server.name} model
      </label>
      <select id={id} value={model} onChange={(e) => setModel(e.currentTarget.value)}>
        <ModelOptions models={server.models} keep={[model]} />
      </select>
      <button type="button" className="btn primary small" disabled={busy || !model} onClick={() => onUse(model)}>
        Use {server.name}
      </button>
    </li>
  );
}

/**
 * A model Juncture found by itself (status.detected): which server, and the
 * choice of its models; saving makes it the person's own setting.
 */
export function DetectedServer({ status }: { status: Status }) {
  const transport = useContext(TransportContext);
  const id = useId();
  const [models, setModels] = useState<string[]>([]);
  // The model the person picked, for the server it was picked on. Until they
  // pick, the box shows the status's model, which may come later (a server
  // reports its model once loaded) or change; their pick is not overridden.
  const [picked, setPicked] = useState<{ endpoint: string; model: string } | null>(null);
  const model = picked?.endpoint === status.endpoint ? picked.model : status.model;
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!transport) return;
    let live = true;
    localServers(transport).then(
      (found) => live && setModels(found.find((f) => f.baseUrl === status.endpoint)?.models ?? [status.model]),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [transport, status.endpoint]);
  if (!transport || !status.detected || saved) return null;
  return (
    <div className="first-start-found" role="region" aria-label="Model found on this computer">
      <span>
        Found <strong>{status.detected}</strong>.
      </span>
      {models.length > 0 && (
        <>
          <label htmlFor={id}>Model</label>
          {/* The model in force (saved, or from the environment) may be one
              the server does not list: it stays a choice after another is tried. */}
          <select id={id} value={model} onChange={(e) => setPicked({ endpoint: status.endpoint, model: e.currentTarget.value })}>
            <ModelOptions models={models} keep={[status.model, model]} />
          </select>
        </>
      )}
      <button
        type="button"
        className="btn small primary"
        disabled={!model}
        aria-describedby={model ? undefined : `${id}-why`}
        onClick={() =>
          saveEndpoint(transport, status.endpoint, '', model).then(
            () => setSaved(true),
            (e: unknown) => setError(toJunctureError(e).message),
          )
        }
      >
        Keep using it
      </button>
      {!model && (
        <span id={`${id}-why`} className="first-start-muted">
          Choose a model to keep using this server.
        </span>
      )}
      {error && (
        <span className="first-start-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
