import { useEffect, useState } from 'react';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import type { Provider, SettingSource, Settings, SettingsField, SettingsView, TestConnectionResult } from '../../transport/contract';
import { isSettingsField } from '../../transport/contract';
import { useAsyncAction } from '../../hooks/useAsyncAction';
import { displaySource, isDirty, savePayload, urlProblem, validateSettings, type FieldErrors } from '../../lib/settingsForm';

/** Where a field's value comes from, or "edited" while the draft differs from it. */
export type Chip = SettingSource | 'edited';

export const SOURCE_TEXT: Record<Chip, string> = {
  edited: 'not saved yet',
  environment: 'from environment',
  saved: 'saved',
  default: 'default',
  detected: 'detected',
};

/** A setting that is a number (typed as text in the form). */
export type NumberField = { [K in SettingsField]: Settings[K] extends number ? K : never }[SettingsField];

/** The text a number shows as ("" for none: NaN stands for an empty or unreadable field). */
const shown = (n: number) => (Number.isFinite(n) ? String(n) : '');
/**
 * Decimal notation, as a number box takes it ("7", "+5", "2.50", "5e1"),
 * with spaces around it. Not what else Number() reads: "0x10", "0b101" and
 * "0o7" would be saved as 16, 5 and 7 with no word to the person.
 */
const DECIMAL = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;
/**
 * The number a field's text is (NaN when empty or unreadable: "1e", "0x10").
 * Full-width digits and signs ("１２", as an input method for Japanese or
 * Chinese types them) read as the ASCII ones they stand for.
 */
export const numberOf = (text: string) => {
  const ascii = text.normalize('NFKC');
  return DECIMAL.test(ascii) ? Number(ascii) : Number.NaN;
};
const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/** Settings › General's form: what Go holds, the draft, its checks, Save and Test connection. */
export type GeneralSettings = ReturnType<typeof useGeneralSettings>;

/**
 * The General tab's state, read again each time the dialog opens (and when
 * `reloadNonce` changes). It lives in the dialog, not the tab, so that the
 * draft survives a visit to another tab and the footer can save it.
 * `readOnlyCopy`: the window shows a read-only copy of damaged data, which
 * Go refuses to save, so every field is locked (shown, not typed in).
 */
export function useGeneralSettings(
  transport: Transport,
  open: boolean,
  reloadNonce: number,
  onSaved: (v: SettingsView) => void,
  presetOf: (url: string, providers?: readonly Provider[]) => string,
  readOnlyCopy = false,
) {
  const [view, setView] = useState<SettingsView | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  // A number field's text as the person typed it ("2.50", "05", "1e"): the
  // draft holds only its number, and the tab is unmounted while another is
  // open, so the text is kept here to come back as typed.
  const [typed, setTyped] = useState<Partial<Record<NumberField, string>>>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  // Go's answer to the last Save, per field (a field's goes when it changes).
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  // Fields checked as they are edited: all after a Save, the URL after a Test.
  const [live, setLive] = useState<ReadonlySet<SettingsField>>(new Set());
  const [scrollNonce, setScrollNonce] = useState(0);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [test, setTest] = useState<TestConnectionResult | null>(null);
  const testing = useAsyncAction((d: Settings) => transport.call('TestConnection', d));
  const [preset, setPreset] = useState('custom');

  useEffect(() => {
    if (!open) return;
    setSaved(false);
    setSaveError(null);
    setServerErrors({});
    setLive(new Set());
    setTest(null);
    testing.setError(null);
    transport
      .call('GetSettings')
      .then((v) => {
        setView(v);
        setDraft(v.settings);
        setTyped({});
        setPreset(presetOf(v.settings.baseUrl, v.providers));
        setLoadError(null);
      })
      .catch((e: unknown) => setLoadError(toJunctureError(e).message));
  }, [open, transport, reloadNonce]); // presetOf and testing.setError do not change

  /** The environment sets the field: change it there and restart. */
  const fromEnvironment = (f: SettingsField) => view?.sources[f] === 'environment';
  /** The field cannot be changed here (the environment sets it, or this is a read-only copy): shown, not typed in. */
  const locked = (f: SettingsField) => readOnlyCopy || fromEnvironment(f);

  // What is wrong now: Go's last answer for fields not changed since, and the
  // live checks (so an error goes as soon as the value is fixed).
  const checked = draft ? validateSettings(draft, locked) : {};
  const fieldErrors: FieldErrors = { ...serverErrors };
  for (const f of live) {
    if (checked[f]) fieldErrors[f] = checked[f];
  }
  const errorCount = Object.keys(fieldErrors).length;

  // A Save that found errors: once they are all fixed, its message goes too.
  useEffect(() => {
    if (errorCount === 0) setSaveError((m) => (m?.startsWith('Nothing was saved. Fix') ? null : m));
  }, [errorCount]);

  const set = <K extends SettingsField>(k: K, v: Settings[K]) => {
    setDraft((d) => (d ? { ...d, [k]: v } : d));
    setSaved(false);
    setServerErrors((e) => {
      // The model's "choose a model" depends on the URL too.
      const drop: SettingsField[] = k === 'baseUrl' ? [k, 'model'] : [k];
      if (!drop.some((f) => e[f])) return e;
      const c = { ...e };
      for (const f of drop) delete c[f];
      return c;
    });
    if (k === 'baseUrl' || k === 'apiKey') {
      // What Test connection found was for the old endpoint.
      setTest(null);
      testing.setError(null);
    }
  };

  /** Checks a field from now on (as a Save does): the person left it, and its error, if any, shows. */
  const check = (f: SettingsField) => setLive((l) => (l.has(f) ? l : new Set(l).add(f)));

  /** What a number field shows: the text typed while it still reads as the draft's number, else that number. */
  const numberText = (f: NumberField): string => {
    const n = draft?.[f] ?? Number.NaN;
    const t = typed[f];
    return t !== undefined && same(numberOf(t), n) ? t : shown(n);
  };
  /** The person typed in a number field: the draft gets the number (Save, the chip and the checks see it), the text stays. */
  const typeNumber = (f: NumberField, text: string) => {
    setTyped((t) => ({ ...t, [f]: text }));
    set(f, numberOf(text));
  };
  /** The person left a number field: a whole number shows as the number it is ("05" as "5"); other text stays, its error shown. */
  const leaveNumber = (f: NumberField) => {
    if (draft && Number.isInteger(draft[f])) {
      setTyped((t) => {
        const rest = { ...t };
        delete rest[f];
        return rest;
      });
    }
    check(f);
  };

  // Save keeps its own slots: its error is also the form's check, and goes once the fields are fixed.
  const save = async () => {
    if (!draft || !view) return;
    setLive(new Set(Object.keys(draft) as SettingsField[]));
    if (Object.keys(validateSettings(draft, locked)).length) {
      setSaveError('Nothing was saved. Fix the fields marked in red.');
      setScrollNonce((n) => n + 1);
      return;
    }
    setSaving(true);
    setSaveError(null);
    try {
      const v = await transport.call('SaveSettings', savePayload(draft, view));
      setView(v);
      setDraft(v.settings);
      setTyped({});
      setServerErrors({});
      setLive(new Set());
      setSaved(true);
      onSaved(v);
    } catch (e) {
      const err = toJunctureError(e);
      const fe: FieldErrors = {};
      const other: string[] = [];
      for (const [k, msg] of Object.entries(err.details ?? {})) {
        if (isSettingsField(k)) fe[k] = msg;
        else other.push(`${k}: ${msg}`);
      }
      setServerErrors(fe);
      setSaveError(
        err.code === 'invalid-settings'
          ? `Nothing was saved. ${Object.keys(fe).length ? 'Fix the fields marked in red.' : err.message}${other.length ? ` ${other.join('; ')}` : ''}`
          : `Nothing was saved: ${err.message}`,
      );
      if (Object.keys(fe).length) setScrollNonce((n) => n + 1);
    } finally {
      setSaving(false);
    }
  };

  const runTest = async () => {
    if (!draft) return;
    setTest(null);
    testing.setError(null);
    const url = draft.baseUrl.trim();
    if (!url) {
      testing.setError('Enter the endpoint’s base URL first.');
      return;
    }
    const problem = urlProblem(url);
    if (problem) {
      setLive((l) => new Set(l).add('baseUrl'));
      testing.setError(problem);
      return;
    }
    const loopGuard = Number.isInteger(draft.loopGuard) ? draft.loopGuard : 25;
    const r = await testing.run({ ...draft, loopGuard });
    if (r) setTest(r);
  };

  /** The chip of a field: where its saved value comes from, or "not saved yet" while edited. */
  const chipOf = (f: SettingsField): Chip | undefined => {
    const src = view?.sources[f];
    if (!view || !draft || !src) return src;
    const a = draft[f];
    const b = view.settings[f];
    if (a !== b && !(typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b))) return 'edited';
    return displaySource(f, b, src);
  };

  /** Puts the draft back to what is saved (closing without saving). */
  const discard = () => {
    if (view && draft) setDraft(view.settings);
    setTyped({});
  };

  return {
    view,
    draft,
    loadError,
    fieldErrors,
    scrollNonce,
    locked,
    fromEnvironment,
    set,
    check,
    numberText,
    typeNumber,
    leaveNumber,
    chipOf,
    dirty: isDirty(draft, view),
    save,
    saving,
    saved,
    saveError,
    test,
    testError: testing.error,
    testing: testing.busy,
    runTest,
    preset,
    setPreset,
    discard,
  };
}
