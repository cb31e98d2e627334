import type { Db } from '../infra/database.js';
import { versionSummaries, type VersionSummary } from '../lists/index.js';
import { TenantsStore } from '../tenants/index.js';
import { enqueueDelivery, serializeListsChangedEvent } from '../webhooks/index.js';

/**
 * The optional webhook event `lists.changed` (issue 30, item 2): when list versions come into force,
 * every organization that opted in (`sanctions orgs update --lists-changed on`) and has a webhook
 * gets the counts of added, removed and changed entities and links to the change feed, signed and
 * retried like every other event. Each version is announced once whichever node's pass gets to it:
 * its row in lists_changed_notices is written in the transaction that writes the deliveries.
 */

function feedLink(base: string, query: Record<string, string>): string {
  return `${base}/v1/lists/changes?${new URLSearchParams(query).toString()}`;
}

/** Where a version's changes start in the feed: after the version before it, or just before its activation. */
function sinceOf(summary: VersionSummary): string {
  return summary.previousVersionId ?? new Date(new Date(summary.activatedAt).getTime() - 1).toISOString();
}

/**
 * Writes the `lists.changed` deliveries of the versions not announced yet; how many deliveries were
 * written. `publicUrl` (PUBLIC_URL) makes the feed links absolute.
 */
export async function announceListChanges(
  db: Db,
  input: { versionIds: string[]; now: Date; publicUrl?: string },
): Promise<number> {
  const summaries = await versionSummaries(db, input.versionIds);
  if (summaries.length === 0) return 0;
  const base = (input.publicUrl ?? '').replace(/\/+$/, '');
  const at = input.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const fresh: VersionSummary[] = [];
    for (const summary of summaries) {
      const inserted = await trx
        .insertInto('lists_changed_notices')
        .values({ version_id: summary.versionId, notified_at: at })
        .onConflict((oc) => oc.column('version_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) fresh.push(summary);
    }
    if (fresh.length === 0) return 0;
    const orgs = (await new TenantsStore(trx).listOrgs()).filter((o) => o.webhook_url && o.webhook_lists_changed === 1);
    const total = (key: 'added' | 'removed' | 'changed' | 'major') => fresh.reduce((n, s) => n + s[key], 0);
    const earliest = [...fresh].sort((a, b) => a.activatedAt.localeCompare(b.activatedAt))[0]!;
    const lists = {
      versions: fresh.map((s) => ({ ...s, feed: feedLink(base, { since: sinceOf(s), source: s.source }) })),
      added: total('added'),
      removed: total('removed'),
      changed: total('changed'),
      major: total('major'),
      feed: feedLink(base, { since: new Date(new Date(earliest.activatedAt).getTime() - 1).toISOString() }),
    };
    for (const org of orgs) {
      await enqueueDelivery(trx, {
        orgId: org.id,
        alertId: null,
        event: 'lists.changed',
        payload: serializeListsChangedEvent(at, org, lists),
        isTest: false,
        now: input.now,
      });
    }
    return orgs.length;
  });
}
