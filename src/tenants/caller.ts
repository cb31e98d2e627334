import type { Context } from '../infra/context.js';
import type { Tier } from './tiers.js';

/** Who is calling the API: the organization that owns the data, the key and its user. */
export interface Caller {
  orgId: string;
  orgSlug: string;
  orgName: string;
  tier: Tier;
  /** Screenings a month; null is unlimited. */
  quota: number | null;
  keyId: string;
  userId: string;
}

/** The context of a call made through the API: who is calling, besides the database, clock and request id. */
export interface CallerContext extends Context {
  caller: Caller;
}
