import { useState } from 'react';
import { knownVisionModel } from '../../lib/visionModels';
import './ImagesAsk.css';

const ASKED = 'juncture.imagesAsked.';

function answeredNo(model: string): boolean {
  try {
    return localStorage.getItem(ASKED + model) === 'no';
  } catch {
    return false;
  }
}

export interface ImagesAskProps {
  /** The model this chat uses. */
  model: string;
  /** Turns "The model accepts images" on (Settings); rejects with the reason. */
  onAllow: () => Promise<void>;
}

/**
 * Images are attached and "The model accepts images" is off: a model known
 * to read images is offered in one click; another is asked about once (a
 * "No" is kept for that model, and the attached image stays refused).
 */
export function ImagesAsk({ model, onAllow }: ImagesAskProps) {
  const [no, setNo] = useState(() => answeredNo(model));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (no) return null;
  const known = knownVisionModel(model);
  const name = model || 'this model';
  const allow = () => {
    setBusy(true);
    setError(null);
    onAllow()
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
      .finally(() => setBusy(false));
  };
  return (
    <div className="images-ask" role="group" aria-label="Images and this model">
      <span className="images-ask-text">
        {known ? (
          <>
            <span className="mono">{name}</span> reads images. Send images to it?
          </>
        ) : (
          <>
            Does <span className="mono">{name}</span> accept images?
          </>
        )}
      </span>
      <button type="button" className="btn small primary" disabled={busy} onClick={allow}>
        {known ? 'Send images' : 'Yes, it does'}
      </button>
      {!known && (
        <button
          type="button"
          className="btn small subtle"
          onClick={() => {
            try {
              localStorage.setItem(ASKED + model, 'no');
            } catch {
              // Not kept: asked again next time.
            }
            setNo(true);
          }}
        >
          No
        </button>
      )}
      {error && (
        <span className="images-ask-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
