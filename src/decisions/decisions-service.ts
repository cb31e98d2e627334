import { appendAudit, type AuditEvent } from '../audit/index.js';
import type { Call, Context } from '../infra/context.js';
import type { Db } from '../infra/database.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { parseJsonArray } from '../infra/json.js';
import { parseDateBound } from '../infra/request-dates.js';
import type { ListSnapshot } from '../lists/index.js';
import { type CallerContext, normalizeEmail, requireOrg, TenantsStore } from '../tenants/index.js';
import { decisionRecordHash } from './decisions-audit.js';
import { type DecisionRow, DecisionsStore } from './decisions-store.js';
import { type DecisionRequestBody, DECISIONS, REASONS } from './decisions-schemas.js';
import { customerKeyOf, entityIdsOf, listingFingerprint } from './suppression.js';

/**
 * Analyst decisions on matches (issue 13, items 2 and 4): POST /screenings/{id}/decisions, POST
 * /alerts/{id}/decisions, GET /decisions, POST /decisions/{id}/approve, and `sanctions decisions`.
 */

/** The matches a decision may be about, and whom they concern: a stored screening, or an alert's rescreen. */
export interface DecisionTarget {
  screeningId: string | null;
  alertId: string | null;
  /** The matches as stored (JSON text). */
  matchesJson: string;
  externalId: string | null;
  searchKey: string;
}

/** An alert of the organization as a decision target; the monitoring domain answers (start/services.ts). */
export type AlertTargets = (db: Db, orgId: string, alertId: string) => Promise<DecisionTarget | undefined>;

/** A stored screening of the organization as a decision target; the screening domain answers (start/services.ts). */
export type ScreeningTargets = (db: Db, orgId: string, screeningId: string) => Promise<DecisionTarget | undefined>;

export interface DecisionsDeps {
  lists: () => ListSnapshot<unknown> | undefined;
  screeningTarget: ScreeningTargets;
  alertTarget?: AlertTargets;
}

/** Who decides: the organization and user (an API key's, or named on the command line). */
export interface Decider {
  orgId: string;
  userId: string;
  keyId: string | null;
}

export interface ListDecisionsInput {
  page: number;
  pageSize: number;
  screeningId?: string;
  alertId?: string;
  entityId?: string;
  externalId?: string;
  decision?: string;
  status?: string;
  dateFrom?: string;
  dateTo?: string;
}

const MAX_NOTE_LENGTH = 2000;
const DAY_MS = 24 * 60 * 60 * 1000;

interface MatchJson {
  matchScore?: number;
  entity?: { id?: string; name?: string };
  listings?: { entityId?: string; name?: string; matchScore?: number }[];
}

function levelOf(score: number): string {
  return score >= 80 ? 'high' : score >= 50 ? 'medium' : 'low';
}

/** The match of `entityId` among a target's matches: its row, or a listing of a grouped match. */
function findMatch(matchesJson: string, entityId: string) {
  for (const match of parseJsonArray<MatchJson>(matchesJson)) {
    if (!entityIdsOf(match).includes(entityId)) continue;
    const listing = match.entity?.id === entityId ? undefined : match.listings?.find((l) => l.entityId === entityId);
    return {
      name: listing?.name ?? match.entity?.name ?? entityId,
      score: listing?.matchScore ?? match.matchScore ?? 0,
    };
  }
  return undefined;
}

function checkBody(body: DecisionRequestBody): { reason: string | null; note: string | null } {
  if (!(DECISIONS as readonly string[]).includes(body.decision))
    throw validationError('decision', `must be one of ${DECISIONS.join(', ')}`);
  if (body.reason !== undefined && !(REASONS as readonly string[]).includes(body.reason))
    throw validationError('reason', `must be one of ${REASONS.join(', ')}`);
  const note = body.note?.trim() || null;
  if (note !== null && note.length > MAX_NOTE_LENGTH)
    throw validationError('note', `must be at most ${MAX_NOTE_LENGTH} characters`);
  if (body.decision === 'false_positive' && body.reason === undefined)
    throw validationError('reason', `is required for a false_positive: one of ${REASONS.join(', ')}`);
  if (body.reason === 'other' && note === null) throw validationError('note', 'is required when the reason is other');
  return { reason: body.reason ?? null, note };
}

/** The decision as the API shows it; `emails` maps user ids to e-mail addresses. */
export function decisionView(row: DecisionRow, emails: Map<string, string>) {
  return {
    id: row.id,
    screeningId: row.screening_id,
    alertId: row.alert_id,
    entityId: row.entity_id,
    entityName: row.entity_name,
    matchScore: row.match_score,
    matchLevel: row.match_level,
    decision: row.decision,
    reason: row.reason,
    note: row.note,
    decidedBy: emails.get(row.user_id) ?? row.user_id,
    status: row.lapsed_at !== null ? 'lapsed' : row.status,
    approvedBy: row.approved_by === null ? null : (emails.get(row.approved_by) ?? row.approved_by),
    approvedAt: row.approved_at,
    reviewAt: row.review_at,
    lapsedAt: row.lapsed_at,
    lapseReason: row.lapse_reason,
    externalId: row.external_id,
    listVersion: row.list_version,
    createdAt: row.created_at,
  };
}
export type DecisionView = ReturnType<typeof decisionView>;

/** Views of decisions with their users' e-mail addresses. */
export async function decisionViews(db: Db, rows: DecisionRow[]): Promise<DecisionView[]> {
  const users = new Set<string>();
  for (const row of rows) {
    users.add(row.user_id);
    if (row.approved_by) users.add(row.approved_by);
  }
  const emails = await new TenantsStore(db).emailsOf([...users]);
  return rows.map((r) => decisionView(r, emails));
}

/**
 * The latest decision (any status) on each entity about one customer: what GET /screenings/{id}
 * and the alerts show on their matches.
 */
export async function latestDecisions(db: Db, orgId: string, customerKey: string): Promise<Map<string, DecisionView>> {
  const rows = await new DecisionsStore(db).allForCustomers(orgId, [customerKey]);
  if (rows.length === 0) return new Map();
  const latest = new Map<string, DecisionRow>();
  for (const row of rows) latest.set(row.entity_id, row);
  const views = await decisionViews(db, [...latest.values()]);
  return new Map(views.map((v) => [v.entityId, v]));
}

export type DecisionsService = ReturnType<typeof decisionsService>;

export function decisionsService(deps: DecisionsDeps) {
  async function target(db: Db, orgId: string, where: { screeningId?: string; alertId?: string }) {
    if (where.screeningId !== undefined) {
      const screening = await deps.screeningTarget(db, orgId, where.screeningId);
      if (!screening) throw notFound(`screening "${where.screeningId}"`);
      return screening;
    }
    const found = where.alertId !== undefined ? await deps.alertTarget?.(db, orgId, where.alertId) : undefined;
    if (!found) throw notFound(`alert "${where.alertId ?? ''}"`);
    return found;
  }

  async function add(
    ctx: Context,
    who: Decider,
    where: { screeningId?: string; alertId?: string },
    body: DecisionRequestBody,
  ) {
    const { reason, note } = checkBody(body);
    const subject = await target(ctx.db, who.orgId, where);
    const entityId = body.entityId.trim();
    const match = findMatch(subject.matchesJson, entityId);
    const decided = subject.alertId ? 'alert' : 'screening';
    if (!match) throw validationError('entityId', `"${entityId}" is not a match of this ${decided}`);
    const org = await new TenantsStore(ctx.db).orgById(who.orgId);
    if (!org) throw notFound('organization');
    const now = ctx.clock.now();
    const at = now.toISOString();
    const level = levelOf(match.score);
    const needsSecond =
      body.decision === 'false_positive' && (org.four_eyes === 'all' || (org.four_eyes === 'high' && level === 'high'));
    // The listing as in force now: its major fields' fingerprint, and the version of its list.
    const lists = deps.lists();
    const source = entityId.slice(0, entityId.indexOf(':'));
    const record = lists?.record(entityId);
    const version = lists?.versions.find((v) => v.source === source)?.version ?? null;
    const store = new DecisionsStore(ctx.db);
    const row: DecisionRow = {
      id: newId('dec', now),
      org_id: who.orgId,
      screening_id: subject.screeningId,
      alert_id: subject.alertId,
      entity_id: entityId,
      entity_name: match.name,
      match_score: match.score,
      match_level: level,
      decision: body.decision,
      reason,
      note,
      user_id: who.userId,
      key_id: who.keyId,
      customer_key: customerKeyOf(subject.externalId, subject.searchKey),
      customer_data: subject.searchKey,
      external_id: subject.externalId,
      fingerprint: record ? listingFingerprint(record) : null,
      list_version: version,
      listed_since: version ? ((await store.activatedAt(version)) ?? at) : at,
      status: needsSecond ? 'pending' : 'effective',
      approved_by: null,
      approved_at: null,
      review_at: needsSecond ? null : new Date(now.getTime() + org.review_days * DAY_MS).toISOString(),
      // A listing no longer in force when decided: it lapses if it is ever listed again.
      delisted_at: record ? null : at,
      lapsed_at: null,
      lapse_reason: null,
      created_at: at,
    };
    const event: AuditEvent = {
      chain: who.orgId,
      event: 'decision.created',
      actor: who.userId,
      subject: row.id,
      at,
      data: {
        screeningId: row.screening_id,
        alertId: row.alert_id,
        entityId,
        decision: row.decision,
        reason,
        note,
        status: row.status,
        externalId: row.external_id,
        listVersion: version ? `${source}:${version}` : null,
        fingerprint: row.fingerprint,
        reviewAt: row.review_at,
        recordHash: decisionRecordHash(row),
      },
    };
    await ctx.db.transaction().execute(async (trx) => {
      await store.insert(row, trx);
      await appendAudit(ctx.db, trx, [event]);
    });
    return (await decisionViews(ctx.db, [row]))[0]!;
  }

  async function approve(ctx: Context, who: Decider, id: string) {
    const store = new DecisionsStore(ctx.db);
    const row = await store.byId(who.orgId, id);
    if (!row) throw notFound(`decision "${id}"`);
    if (row.status !== 'pending') throw new AppError('CONFLICT', `decision "${id}" is not waiting for approval`);
    if (row.user_id === who.userId)
      throw new AppError('FORBIDDEN', 'a decision must be approved by another user of the organization (four-eyes)');
    const org = await new TenantsStore(ctx.db).orgById(who.orgId);
    if (!org) throw notFound('organization');
    const now = ctx.clock.now();
    const at = now.toISOString();
    const reviewAt = new Date(now.getTime() + org.review_days * DAY_MS).toISOString();
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await store.approve(id, who.userId, at, reviewAt, trx)))
        throw new AppError('CONFLICT', `decision "${id}" is not waiting for approval`);
      await appendAudit(ctx.db, trx, [
        {
          chain: who.orgId,
          event: 'decision.approved',
          actor: who.userId,
          subject: id,
          at,
          data: { entityId: row.entity_id, decidedBy: row.user_id, reviewAt, keyId: who.keyId },
        },
      ]);
    });
    const approved = { ...row, status: 'effective', approved_by: who.userId, approved_at: at, review_at: reviewAt };
    return (await decisionViews(ctx.db, [approved]))[0]!;
  }

  async function list(ctx: Context, orgId: string, input: ListDecisionsInput) {
    const from = input.dateFrom !== undefined ? parseDateBound('dateFrom', input.dateFrom, false) : undefined;
    const to = input.dateTo !== undefined ? parseDateBound('dateTo', input.dateTo, true) : undefined;
    const { rows, total } = await new DecisionsStore(ctx.db).page(orgId, {
      page: input.page,
      pageSize: input.pageSize,
      ...(input.screeningId !== undefined ? { screeningId: input.screeningId } : {}),
      ...(input.alertId !== undefined ? { alertId: input.alertId } : {}),
      ...(input.entityId !== undefined ? { entityId: input.entityId } : {}),
      ...(input.externalId !== undefined ? { externalId: input.externalId.trim() } : {}),
      ...(input.decision !== undefined ? { decision: input.decision } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
    });
    return { items: await decisionViews(ctx.db, rows), total };
  }

  /** The command line names the organization and the user. */
  async function deciderOf(ctx: Context, org: string, user: string): Promise<Decider> {
    const tenants = new TenantsStore(ctx.db);
    const organization = await requireOrg(tenants, org);
    const email = normalizeEmail(user);
    const member = await tenants.memberByEmail(organization.id, email);
    if (!member) throw new AppError('FORBIDDEN', `${email} is not a member of "${organization.slug}"`);
    return { orgId: organization.id, userId: member.id, keyId: null };
  }

  const callerOf = (ctx: CallerContext): Decider => ({
    orgId: ctx.caller.orgId,
    userId: ctx.caller.userId,
    keyId: ctx.caller.keyId,
  });

  return {
    decideOnScreening: ({ ctx, input }: Call<{ screeningId: string; body: DecisionRequestBody }, CallerContext>) =>
      add(ctx, callerOf(ctx), { screeningId: input.screeningId }, input.body),
    decideOnAlert: ({ ctx, input }: Call<{ alertId: string; body: DecisionRequestBody }, CallerContext>) =>
      add(ctx, callerOf(ctx), { alertId: input.alertId }, input.body),
    approve: ({ ctx, input }: Call<{ id: string }, CallerContext>) => approve(ctx, callerOf(ctx), input.id),
    listDecisions: ({ ctx, input }: Call<ListDecisionsInput, CallerContext>) => list(ctx, ctx.caller.orgId, input),

    /** `sanctions decisions add`: the same, for a member named on the command line. */
    async addAs({
      ctx,
      input,
    }: Call<{ org: string; user: string; screeningId?: string; alertId?: string; body: DecisionRequestBody }>) {
      if ((input.screeningId === undefined) === (input.alertId === undefined))
        throw validationError('screening', 'give exactly one of --screening and --alert');
      const who = await deciderOf(ctx, input.org, input.user);
      return add(
        ctx,
        who,
        input.screeningId !== undefined ? { screeningId: input.screeningId } : { alertId: input.alertId! },
        input.body,
      );
    },
    async approveAs({ ctx, input }: Call<{ org: string; user: string; id: string }>) {
      return approve(ctx, await deciderOf(ctx, input.org, input.user), input.id);
    },
    async listAs({ ctx, input }: Call<ListDecisionsInput & { org: string }>) {
      const org = await requireOrg(new TenantsStore(ctx.db), input.org);
      return list(ctx, org.id, input);
    },
  };
}
