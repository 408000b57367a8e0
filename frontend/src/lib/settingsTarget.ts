/** A field Settings can be opened at (the empty chat's workspace "Change"). */
export type SettingsTarget = 'workspace';

/** A request to show a field: nonce repeats it when the same field is asked for again. */
export interface SettingsFocus {
  field: SettingsTarget;
  nonce: number;
}
