import type { Call, Context } from '../infra/context.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { type CallerContext, can, TenantsStore } from '../tenants/index.js';
import { type RunOptions, runOptions } from './validation-job.js';
import { type ValidationRunHead, ValidationStore, queuedRun } from './validation-store.js';
import type { SummaryRow } from './report.js';
import { DEFAULT_CUTOFFS } from './figures.js';
import { resolveRunProfile } from './run-profile.js';
import { thresholdsWith } from './thresholds.js';

/** POST/GET /v1/validation-runs, the console's Validation page and `sanctions validate runs` (issue 31). */

export interface StartRunInput {
  quick?: boolean;
  seed?: number;
  thresholds?: Record<string, unknown>;
  /** The score a match must reach to count as found at medium / high (default: the profile's). */
  cutoffs?: { medium?: number; high?: number };
  /** The profile measured (default: the organization's own). */
  profile?: string;
}

export interface ValidationRunView {
  id: string;
  kind: string;
  status: string;
  quick: boolean;
  seed: number;
  progress: { phase: string | null; done: number; total: number };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  passed: boolean | null;
  summary: SummaryRow[] | null;
  error: string | null;
}

export interface ValidationDeps {
  /** Whether a signing key is configured: without one no report can be made. */
  signingConfigured: boolean;
  onQueued?: () => void;
}

export function runView(row: ValidationRunHead): ValidationRunView {
  const options = JSON.parse(row.options) as RunOptions;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    quick: options.quick,
    seed: options.seed,
    progress: { phase: row.phase, done: row.done, total: row.total },
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    passed: row.passed === null ? null : Number(row.passed) === 1,
    summary: row.summary === null ? null : (JSON.parse(row.summary) as SummaryRow[]),
    error: row.error,
  };
}

function cutoffsOf(input: StartRunInput['cutoffs']): RunOptions['cutoffs'] {
  if (!input || (input.medium === undefined && input.high === undefined)) return undefined;
  const medium = input?.medium ?? DEFAULT_CUTOFFS.medium;
  const high = input?.high ?? Math.max(medium, DEFAULT_CUTOFFS.high);
  if (high < medium) throw validationError('cutoffs.high', 'must be at least cutoffs.medium');
  return { medium, high };
}

/** The caller may administer its organization (api keys carry their user's role). */
async function assertAdmin(ctx: CallerContext): Promise<void> {
  const role = await new TenantsStore(ctx.db).roleOf(ctx.caller.orgId, ctx.caller.userId);
  if (!role || !can(role, 'administer'))
    throw new AppError('FORBIDDEN', "only an organization's admins start validation runs");
}

export type ValidationService = ReturnType<typeof validationService>;

export function validationService(deps: ValidationDeps) {
  return {
    /** Queues a run for the caller's organization (admins only; one unfinished run at a time). */
    async startRun({ ctx, input }: Call<StartRunInput, CallerContext>): Promise<ValidationRunView> {
      await assertAdmin(ctx);
      if (!deps.signingConfigured)
        throw new AppError(
          'FEATURE_NOT_AVAILABLE',
          'validation reports are signed: the operator must set VALIDATION_SIGNING_KEY (sanctions validate keygen makes one)',
        );
      const options = runOptions({
        quick: input.quick ?? false,
        ...(input.seed !== undefined ? { seed: input.seed } : {}),
        thresholds: thresholdsWith(input.thresholds),
        ...(input.cutoffs ? { cutoffs: cutoffsOf(input.cutoffs) } : {}),
        ...(input.profile !== undefined ? { profile: input.profile } : {}),
      });
      // A profile that is not the organization's is refused now, naming the field, not when the run starts.
      await resolveRunProfile(ctx.db, {
        orgId: ctx.caller.orgId,
        profileId: input.profile,
        floor: 0,
        field: 'profile',
      });
      const store = new ValidationStore(ctx.db);
      const running = await store.unfinished(ctx.caller.orgId);
      if (running)
        throw new AppError('CONFLICT', `validation run ${running.id} of this organization has not finished yet`);
      const now = ctx.clock.now();
      const id = newId('val', now);
      await store.insert(
        queuedRun({
          id,
          org_id: ctx.caller.orgId,
          kind: options.quick ? 'quick' : 'full',
          options: JSON.stringify(options),
          created_by: ctx.caller.userId,
          created_at: now.toISOString(),
        }),
      );
      deps.onQueued?.();
      return runView((await store.get(id, ctx.caller.orgId))!);
    },

    async listRuns({ ctx, input }: Call<{ page: number; pageSize: number; orgId: string | null }, Context>) {
      const { items, total } = await new ValidationStore(ctx.db).page(input.orgId, input.page, input.pageSize);
      return { items: items.map(runView), total };
    },

    /** The newest completed run's summary, for /metrics. */
    async latestSummary({ ctx }: Call<void, Context>) {
      const row = await new ValidationStore(ctx.db).latestCompleted();
      if (!row?.finished_at || !row.summary) return undefined;
      return { kind: row.kind, finishedAt: row.finished_at, summary: JSON.parse(row.summary) as SummaryRow[] };
    },

    async getRun({ ctx, input }: Call<{ id: string; orgId: string | null }, Context>): Promise<ValidationRunView> {
      const row = await new ValidationStore(ctx.db).get(input.id, input.orgId);
      if (!row) throw notFound('validation run');
      return runView(row);
    },

    /** The report's file; 404 for another organization's run, 409 while it has not completed. */
    async getReport({
      ctx,
      input,
    }: Call<{ id: string; orgId: string | null; format: 'json' | 'html' }, Context>): Promise<string> {
      const store = new ValidationStore(ctx.db);
      const row = await store.get(input.id, input.orgId);
      if (!row) throw notFound('validation run');
      const report = await store.report(input.id, input.orgId);
      const text = input.format === 'json' ? report?.json : report?.html;
      if (row.status !== 'completed' || !text)
        throw new AppError('CONFLICT', `validation run ${row.id} is ${row.status}: its report is not ready`);
      return text;
    },
  };
}
