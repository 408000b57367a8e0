import { useContext, useEffect, useState } from 'react';
import type { Status } from '../../transport/contract';
import { TransportContext } from '../../transport';
import { ConnectModel, DetectedServer } from '../first-start/FirstStart';
import type { SettingsTarget } from '../../lib/settingsTarget';
import './EmptyState.css';

/** Prompts offered in an empty chat; a click puts one in the composer (not sent). */
export const SUGGESTIONS: readonly { label: string; text: string }[] = [
  { label: 'List the files in my workspace', text: 'List the files in my workspace' },
  { label: 'Write a note to notes.txt', text: 'Write a short note to notes.txt with three ideas for a weekend trip' },
  { label: 'Explain a concept simply', text: 'Explain how DNS works, in simple terms' },
  { label: 'Draft a reply', text: 'Draft a friendly reply declining a meeting invitation' },
];

/**
 * Puts text in the composer's box as if typed (its onChange sees it), and
 * focuses it with the caret at the end. The composer keeps its own state;
 * this is the one way in from outside that does not put it in edit mode.
 */
export function fillComposer(text: string, doc: Document = document): boolean {
  const box = doc.querySelector<HTMLTextAreaElement>('.composer textarea');
  if (!box || box.disabled) return false;
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
  if (setValue) setValue.call(box, text);
  else box.value = text;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  box.focus();
  box.setSelectionRange(text.length, text.length);
  return true;
}

/** The folder file tools work in: the saved or environment value, else the default. */
function useWorkspace(): { path: string; isDefault: boolean } | null {
  const transport = useContext(TransportContext);
  const [ws, setWs] = useState<{ path: string; isDefault: boolean } | null>(null);
  useEffect(() => {
    if (!transport) return;
    let live = true;
    transport
      .call('GetSettings')
      .then((v) => {
        if (live) setWs({ path: v.settings.workspace, isDefault: !v.settings.workspace });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [transport]);
  return ws;
}

export interface EmptyStateProps {
  status: Status | null;
  /** at: the field Settings opens at (the workspace's "Change"). */
  onOpenSettings?: ((at?: SettingsTarget) => void) | undefined;
}

/** A new chat: what to try, where files go — or, with no model set up, what to configure. */
export function EmptyState({ status, onOpenSettings }: EmptyStateProps) {
  const ws = useWorkspace();
  const configured = status ? status.configured : true;

  if (status?.readOnly) {
    // Nothing to connect or try: a copy of damaged data is for reading.
    return (
      <div className="thread-empty" role="region" aria-label="Read-only copy">
        <h2>A read-only copy of your history</h2>
        <p>
          Juncture’s history database is damaged and was kept as it was. This window browses a copy of it: pick a chat on
          the left to read it, search it, or export it. Nothing new can be sent or saved here.
        </p>
      </div>
    );
  }

  if (!configured) {
    // The first start: local servers found, a provider with a key, Settings.
    return <ConnectModel problem={status?.problem} onOpenSettings={onOpenSettings && (() => onOpenSettings())} />;
  }

  return (
    <div className="thread-empty" role="region" aria-label="New chat">
      <h2>How can I help?</h2>
      {status?.detected && <DetectedServer status={status} />}
      <p>Ask a question, or ask Juncture to work with files in your workspace. It asks before it changes anything.</p>
      <ul className="thread-suggestions" aria-label="Suggestions">
        {SUGGESTIONS.map((s) => (
          <li key={s.label}>
            <button type="button" className="thread-suggestion" title={s.text} onClick={() => fillComposer(s.text)}>
              {s.label}
            </button>
          </li>
        ))}
      </ul>
      {ws && (
        <p className="thread-workspace">
          <span className="thread-workspace-label">Workspace</span>{' '}
          {ws.isDefault ? (
            <span>the Juncture folder in your Documents (the default)</span>
          ) : (
            <span className="mono" title={ws.path}>
              {ws.path}
            </span>
          )}
          {onOpenSettings && (
            <>
              {' · '}
              <button type="button" className="thread-link" aria-label="Change the workspace folder" onClick={() => onOpenSettings('workspace')}>
                Change
              </button>
            </>
          )}
        </p>
      )}
    </div>
  );
}
