// The list-and-form shell Settings › Endpoints and Settings › Presets share:
// a section listing items, each with its actions and a delete that asks
// first; one item edited at a time in a form under its row (a new one under
// the list); every change saved at once.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { toJunctureError, type JunctureError } from '../../transport';
import { useAsyncAction } from '../../hooks/useAsyncAction';
import { AlertLine } from '../../ui/AlertLine';

/** Field errors of the form, by field. */
export type FormErrors = Partial<Record<string, string>>;

/** The list editor's state: the item being edited (a draft D), its form's errors, the delete asked about, a failed action. */
export function useListEditor<D, E extends FormErrors = FormErrors>() {
  const [editing, setEditing] = useState<D | null>(null);
  const [errors, setErrors] = useState<E>({} as E);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const saving = useAsyncAction(
    async (call: () => Promise<() => void>, fieldErrorsOf: (err: JunctureError) => E) => {
      try {
        const then = await call();
        setEditing(null);
        setErrors({} as E);
        then();
      } catch (e) {
        setErrors(fieldErrorsOf(toJunctureError(e)));
        throw e;
      }
    },
    { describe: (e) => `Nothing was saved: ${toJunctureError(e).message}` },
  );

  return {
    editing,
    /** Changes the draft in the form. */
    update: (f: (d: D) => D) => setEditing((d) => (d ? f(d) : d)),
    errors,
    setErrors,
    formError: saving.error,
    saving: saving.busy,
    confirm,
    setConfirm,
    actionError,
    /** Opens the form on this draft, without the last form's errors. */
    edit: (d: D) => {
      setEditing(d);
      setErrors({} as E);
      saving.setError(null);
    },
    cancel: () => setEditing(null),
    /** The form's own check failed: nothing is sent. */
    invalid: (e: E) => {
      setErrors(e);
      saving.setError('Nothing was saved. Fix the fields marked in red.');
    },
    /** Saves with `call` (which gives what to do after); Go's field errors go to the form's fields. */
    save: (call: () => Promise<() => void>, fieldErrorsOf: (err: JunctureError) => E) => saving.run(call, fieldErrorsOf),
    /** An action on a listed item (delete, make default); its failure is said above the list. */
    act: (call: () => Promise<unknown>, then: () => void, failure: (message: string) => string) => {
      setActionError(null);
      call()
        .then(then)
        .catch((err: unknown) => setActionError(failure(toJunctureError(err).message)));
    },
  };
}

/** The form an item is edited in: Esc or Cancel closes it, Enter saves. */
export function EditorForm({
  label,
  title,
  formError,
  saving,
  saveLabel,
  onSave,
  onCancel,
  children,
}: {
  label: string;
  title: string;
  formError: string | null;
  saving: boolean;
  saveLabel: string;
  onSave: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLFormElement>(null);
  // The form opens under its row, maybe below the fold: bring it into view
  // (its top first when it is taller than the dialog's body).
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.scrollIntoView !== 'function') return;
    const box = el.closest('.settings-body')?.getBoundingClientRect() ?? new DOMRect(0, 0, window.innerWidth, window.innerHeight);
    const r = el.getBoundingClientRect();
    if (r.top >= box.top && r.bottom <= box.bottom) return;
    el.scrollIntoView({ block: r.height > box.height ? 'start' : 'nearest' });
  }, []);
  return (
    <form
      ref={ref}
      className="ep-form"
      noValidate
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <h4 className="ep-form-title">{title}</h4>
      {children}
      {formError && <p className="set-banner error">{formError}</p>}
      <div className="ep-form-actions">
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn primary" disabled={saving}>
          {saving ? 'Saving…' : saveLabel}
        </button>
      </div>
    </form>
  );
}

export interface ListEditorProps<T> {
  title: string;
  help: ReactNode;
  /** Why the list could not be read, in full. */
  loadError: string | null;
  actionError: string | null;
  items: readonly T[] | null;
  /** Said when the list is empty (nothing when absent). */
  empty?: string;
  keyOf: (item: T) => string;
  /** The row's accessible name, and the name its Delete uses. */
  nameOf: (item: T) => string;
  rowLabel?: (item: T) => string;
  rowClass?: (item: T) => string;
  /** The row's head and details. */
  body: (item: T) => ReactNode;
  /** The row's buttons (Delete comes after them when canDelete). */
  actions: (item: T) => ReactNode;
  canDelete: (item: T) => boolean;
  /** What deleting the item does, after "Delete <name>?". */
  deleteText: (item: T) => ReactNode;
  onDelete: (item: T) => void;
  /** Under the row's buttons (a test's result). */
  after?: (item: T) => ReactNode;
  /** The delete asked about (its key), from useListEditor. */
  confirm: string | null;
  onConfirm: (key: string | null) => void;
  /** The key of the item edited (an empty one is a new item), or null; the form itself. */
  editingKey: string | null;
  form: ReactNode;
  addLabel: string;
  onAdd: () => void;
  /** A read-only copy of damaged data: no Add, no Delete, no form (the caller leaves out what its actions would change). */
  locked?: boolean | undefined;
}

/** Settings' list of items with their actions, the form of the one edited, and Add. */
export function ListEditor<T>(p: ListEditorProps<T>) {
  const id = useId();
  return (
    <div className="ep-settings">
      <section aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`}>{p.title}</h3>
        {p.help}
        {p.loadError && <p className="set-banner error">{p.loadError}</p>}
        <AlertLine className="set-banner error" text={p.actionError} />
        {p.items && !p.items.length && p.empty && <p className="set-help">{p.empty}</p>}
        <ul className="ep-list">
          {(p.items ?? []).map((item) => {
            const key = p.keyOf(item);
            const name = p.nameOf(item);
            return (
              <li key={key} className={p.rowClass?.(item) ?? 'ep-row'} aria-label={p.rowLabel?.(item) ?? name}>
                {p.body(item)}
                {p.confirm === key ? (
                  <div className="mcp-confirm" role="alertdialog" aria-label={`Delete ${name}?`}>
                    <span>
                      Delete <strong>{name}</strong>? {p.deleteText(item)}
                    </span>
                    <button type="button" className="btn small" onClick={() => p.onConfirm(null)}>
                      Cancel
                    </button>
                    <button type="button" className="btn small danger-solid" onClick={() => p.onDelete(item)}>
                      Delete
                    </button>
                  </div>
                ) : (
                  <div className="ep-actions">
                    {p.actions(item)}
                    {p.canDelete(item) && !p.locked && (
                      <button type="button" className="btn small danger" onClick={() => p.onConfirm(key)} aria-label={`Delete ${name}`}>
                        Delete
                      </button>
                    )}
                  </div>
                )}
                {p.after?.(item)}
                {p.editingKey === key && !p.locked && p.form}
              </li>
            );
          })}
        </ul>
        {p.locked ? null : p.editingKey === '' ? (
          p.form
        ) : (
          <div>
            <button type="button" className="btn" onClick={p.onAdd}>
              {p.addLabel}
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
