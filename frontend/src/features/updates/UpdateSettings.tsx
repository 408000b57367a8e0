import './Updates.css';
import { useContext, useEffect, useId, useState } from 'react';
import { TransportContext, toJunctureError } from '../../transport';
import type { UpdateStatus } from '../../transport/updates';
import { ReadOnlyCopyContext } from '../../lib/readOnlyCopy';

/** The sentence Settings and the README both say about what an update check sends. */
export const UPDATE_PRIVACY =
  'Juncture asks the feed for the newest version at most once a day. Nothing else is sent: no identifiers, no usage data, no cookies.';

/** Settings → Updates: the off switch, the feed URL, and what the last check found. */
export function UpdateSettings() {
  const transport = useContext(TransportContext);
  const locked = useContext(ReadOnlyCopyContext); // a read-only copy: its settings cannot be saved
  const id = useId();
  const [status, setStatus] = useState<UpdateStatus | null>(null);
  const [feedUrl, setFeedUrl] = useState('');
  const [off, setOff] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!transport) return;
    let live = true;
    transport.call('GetUpdateStatus').then(
      (s) => {
        if (!live) return;
        setStatus(s);
        setFeedUrl(s.settings.feedUrl);
        setOff(s.settings.off);
      },
      (err: unknown) => live && setError(toJunctureError(err).message),
    );
    return () => {
      live = false;
    };
  }, [transport]);

  if (!transport || !status) return error ? <p role="alert">{error}</p> : null;

  const save = (next: { feedUrl: string; off: boolean }) => {
    setSaved(false);
    transport.call('SaveUpdateSettings', next).then(
      (s) => {
        setStatus(s);
        setError(null);
        setSaved(true);
      },
      (err: unknown) => setError(toJunctureError(err).message),
    );
  };
  const check = () => {
    transport.call('CheckForUpdate').then(
      (s) => {
        setStatus(s);
        setError(null);
      },
      (err: unknown) => setError(toJunctureError(err).message),
    );
  };

  return (
    <section className="update-settings" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Updates</h3>
      <p className="update-note">
        This is version <span className="mono">{status.current}</span>. {UPDATE_PRIVACY}
      </p>
      {!status.canUpdate && <p className="update-note">This build has no update key, so it never checks. Update it the way you installed it.</p>}
      {status.managed && <p className="update-note">Installed as a package: your package manager updates it.</p>}
      <label className="update-row">
        <input
          type="checkbox"
          checked={!off}
          disabled={locked}
          onChange={(e) => {
            const next = !e.currentTarget.checked;
            setOff(next);
            save({ feedUrl, off: next });
          }}
        />
        Check for updates
      </label>
      <div className="update-field">
        <label htmlFor={`${id}-feed`}>Release feed</label>
        <input id={`${id}-feed`} type="url" className="mono" value={feedUrl} disabled={off || locked} onChange={(e) => setFeedUrl(e.currentTarget.value)} />
      </div>
      <div className="update-row">
        {!locked && (
          <button type="button" className="btn small" disabled={off || feedUrl === status.settings.feedUrl} onClick={() => save({ feedUrl, off })}>
            Save feed
          </button>
        )}
        <button type="button" className="btn small subtle" disabled={off || !status.canUpdate} onClick={check}>
          Check now
        </button>
        {saved && <span role="status">Saved.</span>}
      </div>
      {(status.message || status.lastCheck) && (
        <p className="update-note" role="status">
          {status.message}
          {status.lastCheck && ` Last checked ${new Date(status.lastCheck).toLocaleString()}.`}
        </p>
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
