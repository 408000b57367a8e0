import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { SettingsField } from '../../transport/contract';
import { ENV_VARS } from '../../lib/settingsForm';
import { SetField } from './SetField';
import { SOURCE_TEXT, type GeneralSettings } from './useGeneralSettings';

export type FieldControl = (fid: string, describedBy: string | undefined) => ReactNode;

/** A General field with its source chip, its help (or where the environment sets it) and its error. */
export function generalField(id: string, form: GeneralSettings) {
  return (f: SettingsField, label: string, control: FieldControl, help?: ReactNode) => {
    const fid = `${id}-${f}`;
    const shownSrc = form.chipOf(f);
    return (
      <SetField
        fid={fid}
        label={label}
        badge={shownSrc && <span className={`set-source src-${shownSrc}`}>{SOURCE_TEXT[shownSrc]}</span>}
        help={form.locked(f) ? `Set by ${ENV_VARS[f] ?? 'an environment variable'}; change it there and restart Juncture.` : help}
        error={form.fieldErrors[f]}
      >
        {(db) => control(fid, db)}
      </SetField>
    );
  };
}

/** A chip beside a toggle's or a radio group's label. */
export function SourceChip({ form, f, hideDefault }: { form: GeneralSettings; f: SettingsField; hideDefault?: boolean }) {
  const chip = form.chipOf(f);
  if (!chip || (hideDefault && chip === 'default')) return null;
  return <span className={`set-source src-${chip}`}>{SOURCE_TEXT[chip]}</span>;
}

type TextField = 'baseUrl' | 'apiKey' | 'model' | 'workspace';

/** A text field's input: its value, read-only when the environment sets it, marked while in error; `attrs` adds to or replaces these. */
export function textControl(form: GeneralSettings, f: TextField, attrs: InputHTMLAttributes<HTMLInputElement> = {}): FieldControl {
  return (fid, db) => (
    <input
      id={fid}
      type="text"
      value={form.draft?.[f] ?? ''}
      readOnly={form.locked(f)}
      aria-describedby={db}
      aria-invalid={form.fieldErrors[f] ? true : undefined}
      onChange={(e) => form.set(f, e.currentTarget.value)}
      {...attrs}
    />
  );
}

type NumberField = 'loopGuard';

/** A number field's input: see NumberInput. */
export function numberControl(form: GeneralSettings, f: NumberField, attrs: InputHTMLAttributes<HTMLInputElement> = {}): FieldControl {
  return (fid, db) => <NumberInput form={form} f={f} fid={fid} describedBy={db} attrs={attrs} />;
}

/** The text a number shows as ("" for none: NaN stands for an empty or unreadable field). */
const shown = (n: number) => (Number.isFinite(n) ? String(n) : '');
/** The number a field's text is (NaN when empty; a browser reports unreadable text, "1e", as empty). */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/**
 * A number field that takes what the person types as typed. The draft gets
 * the number at each keystroke (Save, the chip and the checks see it), but
 * the box shows the person's own text, not the draft's number written back:
 * written back, "05" became "5" under the caret, and "2.50" "2.5". The text
 * becomes the number when the field is left (a whole one; one that is not
 * stays as typed, its error shown) or the settings are loaded or saved.
 */
function NumberInput({ form, f, fid, describedBy, attrs }: { form: GeneralSettings; f: NumberField; fid: string; describedBy: string | undefined; attrs: InputHTMLAttributes<HTMLInputElement> }) {
  const value = form.draft?.[f] ?? Number.NaN;
  const [text, setText] = useState(() => shown(value));
  // Loaded or saved (a new view): show what Go holds. Not on each keystroke's value.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setText(shown(value)), [form.view]);
  // The draft changed from elsewhere (put back): show it, unless the text already reads as it.
  useEffect(() => setText((t) => (same(numberOf(t), value) ? t : shown(value))), [value]);
  return (
    <input
      id={fid}
      type="number"
      value={text}
      readOnly={form.locked(f)}
      aria-describedby={describedBy}
      aria-invalid={form.fieldErrors[f] ? true : undefined}
      onChange={(e) => {
        setText(e.currentTarget.value);
        form.set(f, numberOf(e.currentTarget.value));
      }}
      onBlur={() => {
        if (Number.isInteger(value)) setText(shown(value));
        form.check(f);
      }}
      {...attrs}
    />
  );
}
