import type { Context } from '../infra/context.js';
import type { SecretBox } from '../infra/secrets.js';
import type { RotationReport } from '../tenants/index.js';

/**
 * `sanctions secrets rotate`, for the single sign-on client secrets (issue 33): each one re-sealed
 * under SECRET_KEY, in one transaction, counted into the same report as the webhook secrets; one that
 * no key given opens is left as it was and named (its organization, marked "single sign-on").
 */
export async function rotateSsoSecrets(ctx: Context, box: SecretBox, report: RotationReport): Promise<RotationReport> {
  await ctx.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('org_sso as s')
      .innerJoin('organizations as o', 'o.id', 's.org_id')
      .select(['s.org_id', 's.client_secret', 'o.slug'])
      .execute();
    for (const row of rows) {
      if (!box.needsRotation(row.client_secret)) {
        report.unchanged++;
        continue;
      }
      try {
        const sealed = box.seal(box.open(row.client_secret));
        await trx.updateTable('org_sso').set({ client_secret: sealed }).where('org_id', '=', row.org_id).execute();
        report.rotated++;
      } catch (error) {
        report.failed.push({ org: `${row.slug} (single sign-on)`, error: (error as Error).message });
      }
    }
  });
  return report;
}
