import { memo, useId, useMemo, useRef } from 'react';
import { useModalDialog } from '../../hooks/useModalDialog';
import { IconClose } from '../../ui/icons';
import './ShortcutsSheet.css';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = isMac ? '⌘' : 'Ctrl';

/** The keyboard shortcuts, grouped as the sheet shows them (issue 22 item 14). */
export const SHORTCUTS: readonly { group: string; keys: readonly (readonly string[])[]; what: string }[] = [
  { group: 'Anywhere', keys: [[MOD, 'K']], what: 'Search conversations' },
  { group: 'Anywhere', keys: [[MOD, 'N']], what: 'New chat' },
  { group: 'Anywhere', keys: [[MOD, 'B']], what: 'Show or hide the conversation list' },
  { group: 'Anywhere', keys: [[MOD, ',']], what: 'Settings' },
  { group: 'Anywhere', keys: [[MOD, 'Shift', 'L']], what: 'Activity: every decision made about tools and questions' },
  { group: 'Anywhere', keys: [['?']], what: 'This list (outside a text field)' },
  { group: 'Writing', keys: [['Enter']], what: 'Send (while an answer streams: queue a follow-up)' },
  { group: 'Writing', keys: [['Shift', 'Enter']], what: 'New line' },
  { group: 'Writing', keys: [['Esc']], what: 'Stop the answer; in a menu or dialog, close it' },
  { group: 'Conversation list', keys: [['↑'], ['↓']], what: 'Previous or next chat (Home, End: first, last)' },
  { group: 'Conversation list', keys: [['Shift', 'F10'], ['Menu']], what: 'The chat’s options (Rename, Pin, Export, Delete)' },
  { group: 'Conversation list', keys: [['F2']], what: 'Rename the chat' },
];

export interface ShortcutsSheetProps {
  open: boolean;
  onClose: () => void;
}

/** A modal list of the keyboard shortcuts, opened with "?" or from the sidebar. */
// Memoized (App passes a stable onClose): App renders once per frame while an answer streams.
export const ShortcutsSheet = memo(function ShortcutsSheet({ open, onClose }: ShortcutsSheetProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useModalDialog(ref, open);

  // The list never changes: built once, not on every render of the app
  // around it (the app renders once per frame while an answer streams).
  const body = useMemo(() => <ShortcutsBody id={id} />, [id]);
  return (
    <dialog
      ref={ref}
      className="shortcuts"
      aria-labelledby={`${id}-title`}
      onClose={() => {
        if (open) onClose();
      }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose(); // a click on the backdrop
      }}
    >
      <header className="shortcuts-head">
        <h2 id={`${id}-title`}>Keyboard shortcuts</h2>
        <button type="button" className="icon-btn" aria-label="Close keyboard shortcuts" onClick={onClose}>
          <IconClose />
        </button>
      </header>
      {body}
    </dialog>
  );
});

function ShortcutsBody({ id }: { id: string }) {
  const groups = [...new Set(SHORTCUTS.map((s) => s.group))];
  return (
  <div className="shortcuts-body">
    {groups.map((g) => (
      <section key={g} aria-labelledby={`${id}-${g}`}>
        <h3 id={`${id}-${g}`}>{g}</h3>
        <dl>
          {SHORTCUTS.filter((s) => s.group === g).map((s) => (
            <div className="shortcut" key={s.what}>
              <dt>
                {s.keys.map((combo, i) => (
                  <span key={combo.join('+')}>
                    {i > 0 && <span className="shortcut-or"> or </span>}
                    {combo.map((k, j) => (
                      <span key={k}>
                        {j > 0 && '+'}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </span>
                ))}
              </dt>
              <dd>{s.what}</dd>
            </div>
          ))}
        </dl>
      </section>
    ))}
  </div>
  );
}

/** "?" opens the sheet, unless it is typed into something that takes text. */
export function isShortcutsKey(e: KeyboardEvent): boolean {
  if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return false;
  const t = e.target;
  return !(t instanceof Element && t.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], dialog[open]'));
}
