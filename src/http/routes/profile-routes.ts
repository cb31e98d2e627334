import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  ActivateRequest,
  BacktestReportSchema,
  BacktestRequest,
  CreateProfileRequest,
  DraftRequest,
  Profile,
  ProfileInForce,
  type ProfileService,
} from '../../profiles/index.js';
import { IdParams } from '../../screening/index.js';
import { contextOf } from '../pipeline.js';
import { BODY_ERRORS, COMMON_ERRORS, envelope, responses } from '../schemas.js';

export interface ProfileRouteDeps {
  profiles: ProfileService;
}

const ADMIN_403 = 'FORBIDDEN: the key’s user is not an admin of the organization (or the common 403s).';
const NOT_FOUND = 'NOT_FOUND: no screening profile with this id in the organization.';
const NO_DRAFT = 'CONFLICT: the profile has no draft (or it changed meanwhile).';

type App = ReturnType<typeof typed>;
const typed = (base: FastifyInstance) => base.withTypeProvider<TypeBoxTypeProvider>();
const profile = Type.Ref(Profile);

/** Screening profiles (docs/profiles.md): read by any key of the organization, changed by an admin's. */
export function profileRoutes(deps: ProfileRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = typed(base);
    readRoutes(app, deps);
    createRoutes(app, deps);
    draftRoutes(app, deps);
    backtestRoutes(app, deps);
    activationRoutes(app, deps);
  };
}

/** The organization’s profiles and the one a key screens under: any key of the organization. */
function readRoutes(app: App, deps: ProfileRouteDeps): void {
  app.get(
    '/profiles',
    {
      schema: {
        tags: ['profiles'],
        operationId: 'listProfiles',
        summary: "List the organization's screening profiles",
        security: [{ apiKey: [] }],
        response: responses({ 200: envelope(Type.Array(profile), 'Oldest first.') }, COMMON_ERRORS),
      },
    },
    async (request) => ({ success: true, data: await deps.profiles.list({ ctx: contextOf(request) }) }),
  );
  app.get(
    '/profiles/current',
    {
      schema: {
        tags: ['profiles'],
        operationId: 'currentProfile',
        summary: 'The profile this key screens under now',
        description: "The key's own profile, else the organization's, else the built-in default (id null, version 0).",
        security: [{ apiKey: [] }],
        response: responses({ 200: envelope(Type.Ref(ProfileInForce), 'The profile in force.') }, COMMON_ERRORS),
      },
    },
    async (request) => ({ success: true, data: await deps.profiles.inForce({ ctx: contextOf(request) }) }),
  );
  app.get(
    '/profiles/:id',
    {
      schema: {
        tags: ['profiles'],
        operationId: 'getProfile',
        summary: 'A screening profile: active version, draft, its last backtest and history',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: responses({ 200: envelope(profile, 'The profile.') }, { ...COMMON_ERRORS, 404: NOT_FOUND }),
      },
    },
    async (request) => ({
      success: true,
      data: await deps.profiles.get({ ctx: contextOf(request), input: { id: request.params.id } }),
    }),
  );
}

/** Creating a profile (admin). */
function createRoutes(app: App, deps: ProfileRouteDeps): void {
  app.post(
    '/profiles',
    {
      schema: {
        tags: ['profiles'],
        operationId: 'createProfile',
        summary: 'Create a screening profile (admin)',
        description:
          'One for the organization, and at most one per API key. Version 1 is the built-in default (it changes no outcome); `settings`, when given, are saved as the first draft.',
        security: [{ apiKey: [] }],
        body: CreateProfileRequest,
        response: responses(
          { 201: envelope(profile, 'The profile was created.') },
          {
            ...COMMON_ERRORS,
            ...BODY_ERRORS,
            400: 'VALIDATION_ERROR naming the field: a knob out of its range, an unknown source or entity type, keyId not a key of the organization, name too long.',
            403: ADMIN_403,
            409: 'CONFLICT: the organization (or the key) already has a profile.',
          },
        ),
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof CreateProfileRequest>;
      const data = await deps.profiles.create({
        ctx: contextOf(request),
        input: {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.keyId !== undefined ? { keyId: body.keyId } : {}),
          ...(body.settings !== undefined ? { settings: body.settings } : {}),
        },
      });
      return reply.status(201).send({ success: true, data });
    },
  );
}

/** Saving or discarding a profile's draft (admin). */
function draftRoutes(app: App, deps: ProfileRouteDeps): void {
  app.put(
    '/profiles/:id/draft',
    {
      schema: {
        tags: ['profiles'],
        operationId: 'saveProfileDraft',
        summary: 'Save the draft (admin)',
        description:
          "Knobs sent change the active version's; knobs left out keep them. A draft already open is replaced (its version is kept as discarded).",
        security: [{ apiKey: [] }],
        params: IdParams,
        body: DraftRequest,
        response: responses(
          { 200: envelope(profile, 'The profile with its new draft.') },
          {
            ...COMMON_ERRORS,
            ...BODY_ERRORS,
            400: 'VALIDATION_ERROR naming the knob (`settings.mediumCutoff`, `settings.sources[1]`, `settings.sourceCutoffs.us_csl.high`).',
            403: ADMIN_403,
            404: NOT_FOUND,
            409: 'CONFLICT: a version waits for a second admin’s approval.',
          },
        ),
      },
    },
    async (request) => ({
      success: true,
      data: await deps.profiles.saveDraft({
        ctx: contextOf(request),
        input: { id: request.params.id, settings: (request.body as Static<typeof DraftRequest>).settings },
      }),
    }),
  );
  app.delete(
    '/profiles/:id/draft',
    {
      schema: {
        tags: ['profiles'],
        operationId: 'discardProfileDraft',
        summary: 'Discard the draft (admin)',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: responses(
          { 200: envelope(profile, 'The profile without a draft.') },
          { ...COMMON_ERRORS, 403: ADMIN_403, 404: NOT_FOUND, 409: NO_DRAFT },
        ),
      },
    },
    async (request) => ({
      success: true,
      data: await deps.profiles.discardDraft({ ctx: contextOf(request), input: { id: request.params.id } }),
    }),
  );
}

/** The draft’s backtest (admin). */
function backtestRoutes(app: App, deps: ProfileRouteDeps): void {
  app.post(
    '/profiles/:id/backtest',
    {
      schema: {
        tags: ['profiles'],
        operationId: 'backtestProfile',
        summary: 'Backtest the draft on the organization’s stored screenings (admin)',
        description:
          'Replays the stored screenings of the window (default the last 90 days, newest first, up to `limit`, default 100,000) under the active version and under the draft, against the lists in force, and reports alerts by level on each side, every screening whose level changes with both explanations, every match an analyst confirmed that the draft would no longer report, and the false positives it would no longer raise. The report is kept with the draft and summarized in the audit chain. Send `{}` for the defaults.',
        security: [{ apiKey: [] }],
        params: IdParams,
        body: BacktestRequest,
        response: responses(
          { 200: envelope(Type.Ref(BacktestReportSchema), 'The backtest report.') },
          {
            ...COMMON_ERRORS,
            ...BODY_ERRORS,
            400: 'VALIDATION_ERROR naming windowDays or limit.',
            403: ADMIN_403,
            404: NOT_FOUND,
            409: NO_DRAFT,
            503: 'LISTS_NOT_READY: the lists are not loaded yet.',
          },
        ),
      },
    },
    async (request) => {
      const body = request.body as Static<typeof BacktestRequest>;
      return {
        success: true,
        data: await deps.profiles.backtest({
          ctx: contextOf(request),
          input: { id: request.params.id, windowDays: body.windowDays, limit: body.limit },
        }),
      };
    },
  );
}

/** Activation, and the second admin’s approval under four-eyes. */
function activationRoutes(app: App, deps: ProfileRouteDeps): void {
  app.post(
    '/profiles/:id/activate',
    {
      schema: {
        tags: ['profiles'],
        operationId: 'activateProfile',
        summary: 'Activate the draft (admin)',
        description:
          "Uses the draft's last backtest (runs one with the defaults when it has none). When it drops a confirmed match, a `reason` is required (400 VALIDATION_ERROR naming `reason` without one), and with four-eyes on for the organization the draft then waits (state `pending`) for another admin's POST /profiles/{id}/approve. Activation, the backtest's summary and the reason are appended to the audit chain. Screenings from then on record the new version.",
        security: [{ apiKey: [] }],
        params: IdParams,
        body: ActivateRequest,
        response: responses(
          { 200: envelope(profile, 'The profile: the draft is now active, or pending approval.') },
          {
            ...COMMON_ERRORS,
            ...BODY_ERRORS,
            400: 'VALIDATION_ERROR naming reason: the draft drops a confirmed match and no reason was given (or it is too long).',
            403: ADMIN_403,
            404: NOT_FOUND,
            409: 'CONFLICT: no draft, or it already waits for approval.',
            503: 'LISTS_NOT_READY: a backtest was needed and the lists are not loaded yet.',
          },
        ),
      },
    },
    async (request) => ({
      success: true,
      data: await deps.profiles.activate({
        ctx: contextOf(request),
        input: { id: request.params.id, reason: (request.body as Static<typeof ActivateRequest>).reason },
      }),
    }),
  );
  app.post(
    '/profiles/:id/approve',
    {
      schema: {
        tags: ['profiles'],
        operationId: 'approveProfile',
        summary: 'Approve a version waiting for a second admin (four-eyes)',
        description:
          'The approver must be an admin other than the one who asked for the activation. Send `{}` or no body.',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: responses(
          { 200: envelope(profile, 'The profile with the approved version active.') },
          {
            ...COMMON_ERRORS,
            403: 'FORBIDDEN: not an admin, or the admin who asked for the activation.',
            404: NOT_FOUND,
            409: 'CONFLICT: no version waits for approval.',
          },
        ),
      },
    },
    async (request) => ({
      success: true,
      data: await deps.profiles.approve({ ctx: contextOf(request), input: { id: request.params.id } }),
    }),
  );
}
