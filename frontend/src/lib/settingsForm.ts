// The settings form's rules, kept apart from the dialog so they can be
// tested: field checks (the same as Go's app/settings.go validate, in words
// for a person), what Save sends, and which source chip a field shows.

import type { SettingSource, Settings, SettingsField, SettingsView } from '../transport/contract';

export type FieldErrors = Partial<Record<SettingsField, string>>;

export const URL_EXAMPLE = 'http://127.0.0.1:11434/v1';
export const NOT_A_URL = `This is not a URL: enter one like ${URL_EXAMPLE}`;

/**
 * What is wrong with `s` as a base URL, in words, or '' when Go accepts it:
 * not a URL at all, another scheme (ftp://…), or no server name.
 */
export function urlProblem(s: string): string {
  let u: URL;
  try {
    u = new URL(s.trim());
  } catch {
    return NOT_A_URL;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return `Use an http:// or https:// URL (not ${u.protocol}//), like ${URL_EXAMPLE}`;
  }
  if (u.host === '') return `The URL has no server name: enter one like ${URL_EXAMPLE}`;
  return '';
}

/** Whether `s` is an http(s) URL with a host (what Go accepts as a base URL). */
export function isEndpointUrl(s: string): boolean {
  try {
    const u = new URL(s.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
  } catch {
    return false;
  }
}

function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

/**
 * Field errors for `d`, checked as Go checks them (fields set by the
 * environment are not the person's to fix and are skipped).
 */
/** The tool steps a turn may take (Go's loop guard): the check below and the field's arrow keys. */
export const LOOP_GUARD_RANGE = { min: 1, max: 200 } as const;

export function validateSettings(d: Settings, locked: (f: SettingsField) => boolean = () => false): FieldErrors {
  const e: FieldErrors = {};
  const url = d.baseUrl.trim();
  if (url && !locked('baseUrl') && urlProblem(url)) e.baseUrl = urlProblem(url);
  if (url && !d.model.trim() && !locked('model')) e.model = 'Choose a model: Test connection lists the endpoint’s models.';
  const { min, max } = LOOP_GUARD_RANGE;
  if (!locked('loopGuard') && (!Number.isInteger(d.loopGuard) || d.loopGuard < min || d.loopGuard > max)) {
    e.loopGuard = `Enter a whole number from ${min} to ${max}.`;
  }
  const ws = d.workspace.trim();
  if (ws && !locked('workspace') && !isAbsolutePath(ws)) e.workspace = 'Enter a full folder path, starting with /.';
  return e;
}

/** The fields whose check validateSettings makes (Go's own errors for them are replaced by it). */
export const CHECKED_FIELDS: readonly SettingsField[] = ['baseUrl', 'model', 'loopGuard', 'workspace'];

/** Each field's value when nothing is saved (Go's settings.effective). */
export const DEFAULTS: Settings = {
  baseUrl: '',
  apiKey: '',
  model: '',
  workspace: '',
  loopGuard: 25,
  theme: 'system',
  enableWriteTools: true,
  modelAcceptsImages: false,
};

const TEXT_FIELDS = ['baseUrl', 'apiKey', 'model', 'workspace'] as const;

/**
 * What Save sends. A text field the person did not change and that was not
 * saved before (a default, a detected server, the environment) is sent
 * empty: Go then keeps taking it from where it came from, instead of saving
 * a copy that would outlive it (and show "saved").
 */
export function savePayload(draft: Settings, view: SettingsView): Settings {
  const out: Settings = { ...draft };
  for (const f of TEXT_FIELDS) {
    if (view.sources[f] !== 'saved' && draft[f] === view.settings[f]) out[f] = '';
  }
  return out;
}

/**
 * The source chip a field shows. Go saves every field at once, so a value
 * left at its default comes back as "saved": it is still the default.
 */
export function displaySource(f: SettingsField, value: Settings[SettingsField], src: SettingSource | undefined): SettingSource | undefined {
  if (src === 'saved' && value === DEFAULTS[f]) return 'default';
  return src;
}

/** Whether the draft differs from what is saved. */
export function isDirty(draft: Settings | null, view: SettingsView | null): boolean {
  if (!draft || !view) return false;
  return (Object.keys(DEFAULTS) as SettingsField[]).some((k) => {
    const a = draft[k];
    const b = view.settings[k];
    return !(a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b)));
  });
}

/** The environment variable that sets a field, if one does (Go's envKeys). */
export const ENV_VARS: Partial<Record<SettingsField, string>> = {
  baseUrl: 'OPENAI_BASE_URL',
  apiKey: 'OPENAI_API_KEY',
  model: 'JUNCTURE_MODEL',
  workspace: 'JUNCTURE_WORKSPACE',
};

/** The offline demo's model (agent/fakellm, `make demo`). */
export const DEMO_MODEL = 'fake-model';
