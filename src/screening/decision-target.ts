import type { DecisionTarget } from '../decisions/index.js';
import type { Db } from '../infra/database.js';
import { ScreeningStore } from './screening-store.js';

/** A stored screening of the organization as the target of a decision: its matches, its customer. */
export async function screeningDecisionTarget(
  db: Db,
  orgId: string,
  screeningId: string,
): Promise<DecisionTarget | undefined> {
  const row = await new ScreeningStore(db).byId(orgId, screeningId);
  if (!row) return undefined;
  return {
    screeningId: row.id,
    alertId: null,
    matchesJson: row.match_details,
    externalId: row.external_id,
    searchKey: row.search_key,
  };
}
