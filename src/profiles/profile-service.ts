import { appendAudit, type AuditEvent } from '../audit/index.js';
import type { Call } from '../infra/context.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import type { ListSnapshot } from '../lists/index.js';
import { type Screener } from '../screening/index.js';
import { type CallerContext, can, TenantsStore } from '../tenants/index.js';
import {
  type BacktestReport,
  DEFAULT_LIMIT,
  DEFAULT_WINDOW_DAYS,
  MAX_LIMIT,
  MAX_WINDOW_DAYS,
  runBacktest,
} from './backtest.js';
import { appliedProfile, pickProfile } from './profile-resolver.js';
import { canonicalSettings, DEFAULT_SETTINGS, parseSettings, storedSettings } from './profile-settings.js';
import { type ProfileRow, ProfileStore, type ProfileVersionRow } from './profile-store.js';
import { backtestSummary, profileView, type ProfileView } from './profile-views.js';

/**
 * Screening profiles (issue 29, docs/profiles.md): per organization, optionally per API key. A
 * change is a draft; a backtest replays the organization's screenings under the active version and
 * the draft; activation is refused without a reason when the draft drops a confirmed match, and
 * with four-eyes on then waits for a second admin. Activation, backtest summaries and reasons go
 * into the organization's audit chain.
 */

export interface ProfileDeps {
  /** The lists in force on this node; undefined until they are loaded. */
  lists: () => ListSnapshot<Screener> | undefined;
  matching: { floor: number; maxMatches: number };
}

const REASON_MAX = 2000;
const NAME_MAX = 100;

export type ProfileService = ReturnType<typeof profileService>;

export function profileService(deps: ProfileDeps) {
  async function assertAdmin(ctx: CallerContext): Promise<void> {
    const role = await new TenantsStore(ctx.db).roleOf(ctx.caller.orgId, ctx.caller.userId);
    if (!role || !can(role, 'administer'))
      throw new AppError(
        'FORBIDDEN',
        `only an admin of the organization may change screening profiles (role: ${role ?? 'none'})`,
      );
  }

  async function load(ctx: CallerContext, id: string) {
    const store = new ProfileStore(ctx.db);
    const profile = await store.byId(ctx.caller.orgId, id);
    if (!profile) throw notFound(`screening profile "${id}"`);
    return { store, profile, versions: await store.versions(profile.id) };
  }

  function event(ctx: CallerContext, name: string, subject: string, data: Record<string, unknown>): AuditEvent {
    return {
      chain: ctx.caller.orgId,
      event: name,
      actor: ctx.caller.userId,
      subject,
      at: ctx.clock.now().toISOString(),
      data,
    };
  }

  function listsInForce(): ListSnapshot<Screener> {
    const lists = deps.lists();
    if (!lists)
      throw new AppError('LISTS_NOT_READY', 'the sanctions lists are not loaded yet; retry shortly', {
        headers: { 'Retry-After': '30' },
      });
    return lists;
  }

  async function backtestOf(
    ctx: CallerContext,
    profile: ProfileRow,
    versions: ProfileVersionRow[],
    draft: ProfileVersionRow,
    window: { windowDays?: number | undefined; limit?: number | undefined },
  ): Promise<BacktestReport> {
    const windowDays = window.windowDays ?? DEFAULT_WINDOW_DAYS;
    const limit = window.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(windowDays) || windowDays < 1 || windowDays > MAX_WINDOW_DAYS)
      throw validationError('windowDays', `must be a whole number from 1 to ${MAX_WINDOW_DAYS}`);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      throw validationError('limit', `must be a whole number from 1 to ${MAX_LIMIT}`);
    const active = versions.find((v) => v.version === profile.active_version)!;
    const floor = deps.matching.floor;
    return runBacktest(ctx, {
      orgId: ctx.caller.orgId,
      current: appliedProfile(profile.id, active.version, storedSettings(active.settings), floor),
      draft: appliedProfile(profile.id, draft.version, storedSettings(draft.settings), floor),
      lists: listsInForce(),
      floor,
      maxMatches: deps.matching.maxMatches,
      windowDays,
      limit,
    });
  }

  async function activate(
    ctx: CallerContext,
    profile: ProfileRow,
    v: ProfileVersionRow,
    from: readonly string[],
    extra: Record<string, unknown>,
    set: Partial<ProfileVersionRow> = {},
  ): Promise<void> {
    const at = ctx.clock.now().toISOString();
    const store = new ProfileStore(ctx.db);
    await ctx.db.transaction().execute(async (trx) => {
      await store.setActive(profile.id, v.version, trx);
      if (
        !(await store.move(
          profile.id,
          v.version,
          from,
          { ...set, state: 'active', activated_at: at, activated_by: ctx.caller.userId },
          trx,
        ))
      )
        throw new AppError('CONFLICT', `version ${v.version} of "${profile.id}" is no longer waiting to be activated`);
      await appendAudit(ctx.db, trx, [
        event(ctx, 'profile.activated', profile.id, {
          version: v.version,
          previousVersion: profile.active_version,
          settings: JSON.parse(v.settings) as unknown,
          reason: v.reason,
          requestedBy: v.requested_by,
          backtest: v.backtest ? backtestSummary(JSON.parse(v.backtest) as BacktestReport) : null,
          ...extra,
        }),
      ]);
    });
  }

  return {
    /** The organization's profiles, oldest first. */
    async list({ ctx }: Call<void, CallerContext>): Promise<ProfileView[]> {
      const store = new ProfileStore(ctx.db);
      const out: ProfileView[] = [];
      for (const profile of await store.ofOrg(ctx.caller.orgId))
        out.push(profileView(profile, await store.versions(profile.id)));
      return out;
    },

    async get({ ctx, input }: Call<{ id: string }, CallerContext>): Promise<ProfileView> {
      const { profile, versions } = await load(ctx, input.id);
      return profileView(profile, versions);
    },

    /** A new profile: version 1 is the built-in default (it changes nothing); `settings` make a draft. */
    async create({ ctx, input }: Call<{ name?: string; keyId?: string; settings?: unknown }, CallerContext>) {
      await assertAdmin(ctx);
      const name = (input.name ?? '').trim() || (input.keyId ? `Key ${input.keyId}` : 'Organization profile');
      if (name.length > NAME_MAX) throw validationError('name', `must be at most ${NAME_MAX} characters`);
      const keyId = input.keyId?.trim() || null;
      if (keyId !== null) {
        const key = await new TenantsStore(ctx.db).keyById(keyId);
        if (!key || key.org_id !== ctx.caller.orgId)
          throw validationError('keyId', `no API key "${keyId}" in this organization`);
      }
      const draft = input.settings !== undefined ? parseSettings(input.settings) : undefined;
      const store = new ProfileStore(ctx.db);
      if ((await store.ofOrg(ctx.caller.orgId)).some((p) => p.key_id === keyId))
        throw new AppError(
          'CONFLICT',
          keyId ? `API key "${keyId}" already has a screening profile` : 'the organization already has its profile',
        );
      const now = ctx.clock.now();
      const at = now.toISOString();
      const id = newId('prf', now);
      const base = { profile_id: id, org_id: ctx.caller.orgId, created_by: ctx.caller.userId, created_at: at };
      const none = { backtest: null, backtested_at: null, reason: null, requested_by: null, requested_at: null };
      await ctx.db.transaction().execute(async (trx) => {
        await store.insertProfile(
          { id, org_id: ctx.caller.orgId, key_id: keyId, name, active_version: 1, created_at: at },
          trx,
        );
        await store.insertVersion(
          {
            ...base,
            ...none,
            version: 1,
            state: 'active',
            settings: canonicalSettings(DEFAULT_SETTINGS),
            activated_at: at,
            activated_by: ctx.caller.userId,
          },
          trx,
        );
        if (draft)
          await store.insertVersion(
            {
              ...base,
              ...none,
              version: 2,
              state: 'draft',
              settings: canonicalSettings(draft),
              activated_at: null,
              activated_by: null,
            },
            trx,
          );
        await appendAudit(ctx.db, trx, [
          event(ctx, 'profile.created', id, {
            name,
            keyId,
            version: 1,
            draft: draft ? JSON.parse(canonicalSettings(draft)) : null,
          }),
        ]);
      });
      return this.get({ ctx, input: { id } });
    },

    /**
     * Saves the draft: knobs sent change the active version's; knobs left out keep them. A draft
     * already open is discarded for the new one (versions are written once).
     */
    async saveDraft({ ctx, input }: Call<{ id: string; settings: unknown }, CallerContext>): Promise<ProfileView> {
      await assertAdmin(ctx);
      const { store, profile, versions } = await load(ctx, input.id);
      const active = versions.find((v) => v.version === profile.active_version)!;
      const settings = parseSettings(input.settings, storedSettings(active.settings));
      const open = versions.find((v) => v.state === 'draft' || v.state === 'pending');
      if (open?.state === 'pending')
        throw new AppError(
          'CONFLICT',
          `version ${open.version} waits for a second admin's approval: approve or discard it first`,
        );
      const at = ctx.clock.now().toISOString();
      const version = Math.max(...versions.map((v) => v.version)) + 1;
      await ctx.db.transaction().execute(async (trx) => {
        if (open && !(await store.move(profile.id, open.version, ['draft'], { state: 'discarded' }, trx)))
          throw new AppError('CONFLICT', 'the draft was changed meanwhile; reload it');
        await store.insertVersion(
          {
            profile_id: profile.id,
            version,
            org_id: ctx.caller.orgId,
            state: 'draft',
            settings: canonicalSettings(settings),
            created_by: ctx.caller.userId,
            created_at: at,
            backtest: null,
            backtested_at: null,
            reason: null,
            requested_by: null,
            requested_at: null,
            activated_by: null,
            activated_at: null,
          },
          trx,
        );
        await appendAudit(ctx.db, trx, [
          event(ctx, 'profile.draft_saved', profile.id, { version, settings: JSON.parse(canonicalSettings(settings)) }),
        ]);
      });
      return this.get({ ctx, input: { id: profile.id } });
    },

    async discardDraft({ ctx, input }: Call<{ id: string }, CallerContext>): Promise<ProfileView> {
      await assertAdmin(ctx);
      const { store, profile, versions } = await load(ctx, input.id);
      const open = versions.find((v) => v.state === 'draft' || v.state === 'pending');
      if (!open) throw new AppError('CONFLICT', `screening profile "${profile.id}" has no draft`);
      await ctx.db.transaction().execute(async (trx) => {
        if (!(await store.move(profile.id, open.version, ['draft', 'pending'], { state: 'discarded' }, trx)))
          throw new AppError('CONFLICT', 'the draft was changed meanwhile; reload it');
        await appendAudit(ctx.db, trx, [event(ctx, 'profile.draft_discarded', profile.id, { version: open.version })]);
      });
      return this.get({ ctx, input: { id: profile.id } });
    },

    /** Replays the window under the active version and the draft; kept with the draft and summarized in the audit chain. */
    async backtest({
      ctx,
      input,
    }: Call<
      { id: string; windowDays?: number | undefined; limit?: number | undefined },
      CallerContext
    >): Promise<BacktestReport> {
      await assertAdmin(ctx);
      const { store, profile, versions } = await load(ctx, input.id);
      const draft = versions.find((v) => v.state === 'draft' || v.state === 'pending');
      if (!draft) throw new AppError('CONFLICT', `screening profile "${profile.id}" has no draft to backtest`);
      const report = await backtestOf(ctx, profile, versions, draft, input);
      const at = ctx.clock.now().toISOString();
      await store.saveBacktest(profile.id, draft.version, JSON.stringify(report), at);
      await ctx.db
        .transaction()
        .execute((trx) =>
          appendAudit(ctx.db, trx, [
            event(ctx, 'profile.backtested', profile.id, { version: draft.version, ...backtestSummary(report) }),
          ]),
        );
      return report;
    },

    /**
     * Activates the draft. Its backtest (run now when it has none) must not drop a confirmed match,
     * unless a reason is given; then, with four-eyes on, it waits for a second admin.
     */
    async activate({ ctx, input }: Call<{ id: string; reason?: string | undefined }, CallerContext>) {
      await assertAdmin(ctx);
      const { store, profile, versions } = await load(ctx, input.id);
      const draft = versions.find((v) => v.state === 'draft' || v.state === 'pending');
      if (!draft) throw new AppError('CONFLICT', `screening profile "${profile.id}" has no draft to activate`);
      if (draft.state === 'pending')
        throw new AppError('CONFLICT', `version ${draft.version} already waits for a second admin's approval`);
      const reason = input.reason?.trim() || null;
      if (reason !== null && reason.length > REASON_MAX)
        throw validationError('reason', `must be at most ${REASON_MAX} characters`);
      let report: BacktestReport;
      if (draft.backtest) report = JSON.parse(draft.backtest) as BacktestReport;
      else {
        report = await backtestOf(ctx, profile, versions, draft, {});
        draft.backtest = JSON.stringify(report);
        await store.saveBacktest(profile.id, draft.version, draft.backtest, ctx.clock.now().toISOString());
      }
      const lost = report.confirmedLost.total;
      if (lost > 0 && reason === null) {
        const names = [...new Set(report.confirmedLost.items.map((i) => i.entityName ?? i.entityId))].slice(0, 5);
        throw validationError(
          'reason',
          `the draft would drop ${lost} confirmed match${lost === 1 ? '' : 'es'} below medium (${names.join('; ')}): activating it needs a reason`,
        );
      }
      const org = await new TenantsStore(ctx.db).orgById(ctx.caller.orgId);
      const fourEyes = lost > 0 && org !== undefined && org.four_eyes !== 'off';
      const at = ctx.clock.now().toISOString();
      draft.reason = reason;
      if (fourEyes) {
        await ctx.db.transaction().execute(async (trx) => {
          if (
            !(await store.move(
              profile.id,
              draft.version,
              ['draft'],
              { state: 'pending', reason, requested_by: ctx.caller.userId, requested_at: at },
              trx,
            ))
          )
            throw new AppError('CONFLICT', 'the draft was changed meanwhile; reload it');
          await appendAudit(ctx.db, trx, [
            event(ctx, 'profile.activation_requested', profile.id, {
              version: draft.version,
              reason,
              backtest: backtestSummary(report),
            }),
          ]);
        });
      } else {
        draft.requested_by = ctx.caller.userId;
        await activate(
          ctx,
          profile,
          draft,
          ['draft'],
          {},
          { reason, requested_by: ctx.caller.userId, requested_at: at },
        );
      }
      return this.get({ ctx, input: { id: profile.id } });
    },

    /** Four-eyes: a second admin (not the one who asked) activates a pending version. */
    async approve({ ctx, input }: Call<{ id: string }, CallerContext>) {
      await assertAdmin(ctx);
      const { profile, versions } = await load(ctx, input.id);
      const pending = versions.find((v) => v.state === 'pending');
      if (!pending)
        throw new AppError('CONFLICT', `screening profile "${profile.id}" has no version waiting for approval`);
      if (pending.requested_by === ctx.caller.userId)
        throw new AppError(
          'FORBIDDEN',
          'a profile change must be approved by another admin of the organization (four-eyes)',
        );
      await activate(ctx, profile, pending, ['pending'], { approvedBy: ctx.caller.userId });
      return this.get({ ctx, input: { id: profile.id } });
    },

    /** The profile a key screens under now (its own, the organization's, or the built-in default). */
    async inForce({ ctx }: Call<void, CallerContext>) {
      const rows = await new ProfileStore(ctx.db).active(ctx.caller.orgId);
      const row = pickProfile(rows, ctx.caller.orgId, ctx.caller.keyId);
      return row
        ? { id: row.id, version: row.version, settings: storedSettings(row.settings) }
        : { id: null, version: 0, settings: { ...DEFAULT_SETTINGS } };
    },
  };
}
