import type { InputHTMLAttributes, ReactNode } from 'react';
import type { SettingsField } from '../../transport/contract';
import { ENV_VARS } from '../../lib/settingsForm';
import { SetField } from './SetField';
import { SOURCE_TEXT, numberOf, type GeneralSettings, type NumberField } from './useGeneralSettings';

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
        help={form.fromEnvironment(f) ? `Set by ${ENV_VARS[f] ?? 'an environment variable'}; change it there and restart Juncture.` : help}
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

/** The whole numbers a number field takes, which its arrow keys step through. */
export type NumberRange = { min: number; max: number };

/** A number field's input: see NumberInput. */
export function numberControl(
  form: GeneralSettings,
  f: NumberField,
  range: NumberRange,
  attrs: InputHTMLAttributes<HTMLInputElement> = {},
): FieldControl {
  return (fid, db) => <NumberInput form={form} f={f} range={range} fid={fid} describedBy={db} attrs={attrs} />;
}

/**
 * The number an arrow key steps to, as a number box's arrows do: one up or
 * down, kept within the range. Text past an end of the range ("999",
 * "-5", "1e400") comes back to that end, whichever the arrow (never to
 * the far end: 250 and ↑ is 200, not 1); a fraction steps to the whole
 * number in the arrow's direction ("2.5": 3 or 2). Unreadable or empty
 * text ("1e", "0x10") starts from the end the arrow points away from.
 */
export function stepNumber(text: string, by: 1 | -1, { min, max }: NumberRange): number {
  const n = numberOf(text);
  if (Number.isNaN(n)) return by > 0 ? min : max;
  if (n < min) return min;
  if (n > max) return max;
  const whole = Number.isInteger(n) ? n + by : by > 0 ? Math.ceil(n) : Math.floor(n);
  return Math.min(max, Math.max(min, whole));
}

/**
 * A number field that takes what the person types as typed. The draft gets
 * the number at each keystroke, but the box shows the person's own text
 * (useGeneralSettings keeps it, so it outlives a visit to another tab): written
 * back from the number, "05" became "5" under the caret, and "2.50" "2.5".
 * A text input, not type="number": a browser reports text it cannot read
 * ("1e") as "", so that text could neither be kept nor shown again.
 */
function NumberInput({ form, f, range, fid, describedBy, attrs }: { form: GeneralSettings; f: NumberField; range: NumberRange; fid: string; describedBy: string | undefined; attrs: InputHTMLAttributes<HTMLInputElement> }) {
  const text = form.numberText(f);
  const value = numberOf(text);
  const locked = form.locked(f);
  return (
    // A text box with the spin button's role and keys (↑/↓ step by one):
    // what a number input gave, without its turning unreadable text into "".
    <input
      id={fid}
      type="text"
      inputMode="numeric"
      role="spinbutton"
      aria-valuemin={range.min}
      aria-valuemax={range.max}
      aria-valuenow={Number.isFinite(value) ? value : undefined}
      value={text}
      onKeyDown={(e) => {
        // While an input method composes, its arrows pick among candidates.
        if (locked || e.isComposing || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
        e.preventDefault();
        form.typeNumber(f, String(stepNumber(e.currentTarget.value, e.key === 'ArrowUp' ? 1 : -1, range)));
      }}
      readOnly={locked}
      aria-describedby={describedBy}
      aria-invalid={form.fieldErrors[f] ? true : undefined}
      onChange={(e) => form.typeNumber(f, e.currentTarget.value)}
      onBlur={() => form.leaveNumber(f)}
      {...attrs}
    />
  );
}
