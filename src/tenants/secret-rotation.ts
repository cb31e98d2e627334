import type { Context } from '../infra/context.js';
import { AppError } from '../infra/errors.js';
import type { SecretBox } from '../infra/secrets.js';
import { TenantsStore } from './tenants-store.js';

export interface RotationReport {
  keyId: string;
  /** Secrets sealed anew under the current key (clear text or another key before). */
  rotated: number;
  /** Already under the current key. */
  unchanged: number;
  /** Organizations whose secret could not be opened with any key given (left as they were). */
  failed: { org: string; error: string }[];
}

/**
 * `sanctions secrets rotate`: every organization's webhook secret sealed under SECRET_KEY, opened
 * with whichever of SECRET_KEY and SECRET_KEY_PREVIOUS sealed it (clear-text secrets are sealed), in
 * one transaction. Once it reports no failure, the previous keys can be dropped from the settings.
 */
export async function rotateWebhookSecrets(ctx: Context, box: SecretBox): Promise<RotationReport> {
  const keyId = box.currentKeyId;
  if (keyId === undefined) {
    throw new AppError('BAD_REQUEST', 'SECRET_KEY is not set: there is no key to encrypt the webhook secrets under');
  }
  return ctx.db.transaction().execute(async (trx) => {
    const store = new TenantsStore(trx);
    const report: RotationReport = { keyId, rotated: 0, unchanged: 0, failed: [] };
    for (const org of await store.listOrgs()) {
      if (org.webhook_secret === null) continue;
      if (!box.needsRotation(org.webhook_secret)) {
        report.unchanged++;
        continue;
      }
      try {
        await store.updateOrg(org.id, { webhook_secret: box.seal(box.open(org.webhook_secret)) });
        report.rotated++;
      } catch (error) {
        report.failed.push({ org: org.slug, error: (error as Error).message });
      }
    }
    return report;
  });
}
