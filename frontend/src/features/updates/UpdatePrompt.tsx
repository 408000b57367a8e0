import './Updates.css';
import { memo, useContext, useEffect, useState } from 'react';
import { TransportContext, toJunctureError } from '../../transport';
import type { UpdateStatus } from '../../transport/updates';
import { AlertLine } from '../../ui/AlertLine';

/**
 * "Version X is available — what's new", with Update. Asks the app to check
 * once when the window opens (the app itself limits checks to one a day
 * and makes none when updates are off), and stays out of the way otherwise.
 * Memoized: App renders once per frame while an answer streams.
 */
export const UpdatePrompt = memo(function UpdatePrompt({ threadId }: { threadId: string | null }) {
  const transport = useContext(TransportContext);
  const [status, setStatus] = useState<UpdateStatus | null>(null);
  const [notesOpen, setNotesOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (!transport) return;
    let live = true;
    transport.call('CheckForUpdate').then(
      (s) => live && setStatus(s),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [transport]);

  const offer = status?.offer;
  if (!transport || !status || dismissed) return null;
  if (note) {
    return (
      <div className="update-prompt" role="status">
        <span className="update-prompt-text">{note}</span>
        <button type="button" className="btn subtle small" onClick={() => setDismissed(true)}>
          OK
        </button>
      </div>
    );
  }
  if (!offer && !status.restarting) return null;

  if (status.restarting) {
    return (
      <div className="update-prompt" role="status">
        <span className="update-prompt-text">Restarting into the new version…</span>
      </div>
    );
  }
  if (!offer) return null;

  const update = () => {
    setBusy(true);
    setError(null);
    transport.call('ApplyUpdate', threadId ?? '').then(
      (s) => {
        setStatus(s);
        if (!s.restarting) setNote(s.message || 'The update is installed; it starts with the next launch.');
        setBusy(false);
      },
      (err: unknown) => {
        setError(toJunctureError(err).message);
        setBusy(false);
      },
    );
  };

  return (
    <div className="update-prompt" role="region" aria-label="Update available">
      <span className="update-prompt-text">
        Version {offer.version} is available —{' '}
        <button type="button" className="update-link" aria-expanded={notesOpen} onClick={() => setNotesOpen((o) => !o)}>
          what's new
        </button>
      </span>
      {status.managed ? (
        <span>Update it with your package manager.</span>
      ) : (
        <button type="button" className="btn primary small" disabled={busy} onClick={update}>
          {busy ? 'Updating…' : 'Update'}
        </button>
      )}
      <button type="button" className="btn subtle small" onClick={() => setDismissed(true)}>
        Later
      </button>
      {notesOpen && (
        <p className="update-prompt-notes">
          {offer.notes || 'No notes for this version.'}
          {offer.notesUrl && (
            <>
              {' '}
              <a href={offer.notesUrl} target="_blank" rel="noreferrer noopener">
                Release page
              </a>
            </>
          )}
        </p>
      )}
      <AlertLine className="update-prompt-error" text={error} />
    </div>
  );
});
