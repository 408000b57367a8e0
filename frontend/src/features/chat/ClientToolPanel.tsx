import { useSyncExternalStore } from 'react';
import type { PendingClientTool } from '../../state/types';
import { describeClientTool, type ClientToolRunner } from '../../lib/clientTools';
import './ClientToolPanel.css';

export interface ClientToolPanelProps {
  threadId: string;
  tools: readonly PendingClientTool[];
  runner: ClientToolRunner;
}

/**
 * Client tools waiting for this window (copy to clipboard, open a link),
 * with the arguments the runtime recorded for them (as approved).
 */
export function ClientToolPanel({ threadId, tools, runner }: ClientToolPanelProps) {
  useSyncExternalStore(runner.subscribe, runner.getVersion);
  const visible = tools.filter((t) => runner.status(t.toolCallId)?.kind !== 'done');
  if (!visible.length) return null;
  return (
    <section className="ctools" aria-label="Actions for this window">
      {visible.map((t) => {
        const st = runner.status(t.toolCallId);
        const info = { threadId, toolCallId: t.toolCallId, name: t.toolName, args: t.arguments };
        const what = describeClientTool(t.toolName, t.arguments);
        const running = st?.kind === 'running';
        const needsAction = t.restored || st?.kind === 'needs-click' || st?.kind === 'error' || !st;
        return (
          <div key={t.toolCallId} className="ctool" role="group" aria-label={what}>
            <div className="ctool-text">
              {t.restored && !st ? (
                <strong>This action was waiting when Juncture closed.</strong>
              ) : st?.kind === 'needs-click' ? (
                <strong>{st.reason}</strong>
              ) : st?.kind === 'error' ? (
                <strong className="ctool-error">Could not report the result: {st.message}</strong>
              ) : running ? (
                <strong>Working…</strong>
              ) : (
                <strong>Waiting to run.</strong>
              )}{' '}
              <span className="ctool-what">{what}</span>
              {t.edited && <span className="ctool-edited"> (with your edits)</span>}
            </div>
            {needsAction && !running && (
              <div className="ctool-actions">
                <button type="button" className="btn primary small" onClick={() => void runner.run(info, true)}>
                  Run now
                </button>
                <button type="button" className="btn small subtle" onClick={() => void runner.cancel(info)}>
                  Cancel
                </button>
              </div>
            )}
          </div>
        );
      })}
    </section>
  );
}
