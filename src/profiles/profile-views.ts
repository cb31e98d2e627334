import type { Context } from '../infra/context.js';
import { AppError } from '../infra/errors.js';
import { type CallerContext, normalizeEmail, requireOrg, TenantsStore } from '../tenants/index.js';
import type { BacktestReport } from './backtest.js';
import { type ProfileSettings, storedSettings } from './profile-settings.js';
import type { ProfileRow, ProfileVersionRow } from './profile-store.js';

/** What the profile operations answer (a profile with its versions), and the command line's caller. */

export interface VersionView {
  version: number;
  state: string;
  settings: ProfileSettings;
  createdAt: string;
  createdBy: string;
  backtestedAt: string | null;
  reason: string | null;
  requestedBy: string | null;
  activatedAt: string | null;
  activatedBy: string | null;
}

export interface ProfileView {
  id: string;
  name: string;
  keyId: string | null;
  activeVersion: number;
  active: VersionView;
  /** The version waiting to become active: a draft, or one pending a second admin's approval. */
  draft: VersionView | null;
  /** The draft's last backtest, when it has one. */
  backtest: BacktestReport | null;
  history: Omit<VersionView, 'settings'>[];
  createdAt: string;
}

function versionView(v: ProfileVersionRow): VersionView {
  return {
    version: v.version,
    state: v.state,
    settings: storedSettings(v.settings),
    createdAt: v.created_at,
    createdBy: v.created_by,
    backtestedAt: v.backtested_at,
    reason: v.reason,
    requestedBy: v.requested_by,
    activatedAt: v.activated_at,
    activatedBy: v.activated_by,
  };
}

export function profileView(p: ProfileRow, versions: ProfileVersionRow[]): ProfileView {
  const active = versions.find((v) => v.version === p.active_version)!;
  const open = versions.find((v) => v.state === 'draft' || v.state === 'pending');
  return {
    id: p.id,
    name: p.name,
    keyId: p.key_id,
    activeVersion: p.active_version,
    active: versionView(active),
    draft: open ? versionView(open) : null,
    backtest: open?.backtest ? (JSON.parse(open.backtest) as BacktestReport) : null,
    history: versions.map((v) => {
      const { settings: _settings, ...rest } = versionView(v);
      return rest;
    }),
    createdAt: p.created_at,
  };
}

/** The figures of a backtest an examiner needs in the audit chain (the lists stay with the draft). */
export function backtestSummary(r: BacktestReport) {
  return {
    window: r.window,
    screenings: r.screenings,
    truncated: r.truncated,
    listVersions: r.listVersions.map((v) => `${v.source}:${v.version}`),
    alerts: r.alerts,
    levelChanges: r.levelChanges.total,
    confirmedLost: r.confirmedLost.total,
    confirmedLostEntities: [...new Set(r.confirmedLost.items.map((i) => i.entityId))].slice(0, 50),
    falsePositivesCleared: r.falsePositivesCleared.total,
  };
}

/**
 * The command line acts as a member of an organization (`--org`, `--user`): the context the
 * profile operations expect for them. The role is checked by each operation, as for an API key.
 */
export async function memberContext(ctx: Context, org: string, user: string): Promise<CallerContext> {
  const tenants = new TenantsStore(ctx.db);
  const orgRow = await requireOrg(tenants, org);
  const email = normalizeEmail(user);
  const member = await tenants.memberByEmail(orgRow.id, email);
  if (!member) throw new AppError('FORBIDDEN', `${email} is not a member of "${orgRow.slug}"`);
  return {
    ...ctx,
    caller: {
      orgId: orgRow.id,
      orgSlug: orgRow.slug,
      orgName: orgRow.name,
      tier: orgRow.tier as CallerContext['caller']['tier'],
      quota: orgRow.monthly_quota,
      keyId: `cli:${member.id}`,
      userId: member.id,
    },
  };
}
