import type { ToolProgress } from '../../transport/contract';

/** Percent done, when the server said how much there is. */
export function progressPercent(p: ToolProgress): number | null {
  if (p.total === undefined || !(p.total > 0)) return null;
  return Math.max(0, Math.min(100, Math.round((p.progress / p.total) * 100)));
}

/** A running call's progress: a bar (indeterminate while the total is unknown) and the server's message. */
export function ToolProgressBar({ progress, label }: { progress: ToolProgress; label: string }) {
  const pct = progressPercent(progress);
  const total = pct !== null ? progress.total : undefined;
  const known = total !== undefined;
  return (
    <div className="tool-progress">
      {known ? (
        <progress aria-label={label} value={Math.min(progress.progress, total)} max={total} />
      ) : (
        <progress aria-label={label} />
      )}
      <span className="tool-progress-text">
        {progress.message && <span className="tool-progress-msg">{progress.message}</span>}
        {known ? (
          <span className="tool-progress-pct">{pct}%</span>
        ) : progress.progress > 0 && !progress.message ? (
          <span className="tool-progress-pct">{progress.progress}</span>
        ) : null}
      </span>
    </div>
  );
}
