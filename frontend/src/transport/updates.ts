// Updates (README "Install it"): the release feed's last answer and the
// person's choices. The parsers are generated (parse.gen.ts).

import type * as G from './contract.gen';

export type UpdateSettings = G.UpdateSettings;
export type UpdateStatus = G.UpdateStatus;
export type UpdateOffer = G.Offer;
