// Updates (README "Install it"): the release feed's last answer and the
// person's choices, narrowed from the wire.

import type * as G from './contract.gen';
import { JunctureError } from './errors';
import { bool, isNumber, isObject, str } from './json';

export type UpdateSettings = G.UpdateSettings;
export type UpdateStatus = G.UpdateStatus;
export type UpdateOffer = G.Offer;

function bad(what: string): JunctureError {
  return new JunctureError('bad-response', `Unexpected ${what} from Juncture`);
}

function parseOffer(u: unknown): UpdateOffer | undefined {
  if (!isObject(u) || typeof u.version !== 'string' || !u.version) return undefined;
  const a = isObject(u.artifact) ? u.artifact : {};
  return {
    version: u.version,
    notes: str(u, 'notes'),
    notesUrl: str(u, 'notesUrl'),
    artifact: { url: str(a, 'url'), size: isNumber(a.size) ? a.size : 0, sha256: str(a, 'sha256'), signature: str(a, 'signature') },
  };
}

export function parseUpdateStatus(u: unknown): UpdateStatus {
  if (!isObject(u) || !isObject(u.settings)) throw bad('update status');
  const offer = parseOffer(u.offer);
  return {
    settings: { feedUrl: str(u.settings, 'feedUrl'), off: bool(u.settings, 'off') },
    current: str(u, 'current'),
    ...(offer ? { offer } : {}),
    lastCheck: str(u, 'lastCheck'),
    message: str(u, 'message'),
    managed: bool(u, 'managed'),
    canUpdate: bool(u, 'canUpdate'),
    restarting: bool(u, 'restarting'),
  };
}
