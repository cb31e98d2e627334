import { type TSchema, Type } from '@sinclair/typebox';
import { ERROR_CODES } from '../infra/errors.js';

/**
 * Shared pieces of the v1 contract: the envelope (api-v1.md 2.1), the error body (section 7) and the
 * headers every response carries (section 8). Route schemas build on these; the OpenAPI document is
 * generated from the same objects.
 */

export const ErrorCodeSchema = Type.Union(ERROR_CODES.map((code) => Type.Literal(code)));

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: ErrorCodeSchema,
      message: Type.String(),
      field: Type.Optional(Type.String({ description: 'For VALIDATION_ERROR: the field at fault.' })),
    }),
  },
  { $id: 'ErrorEnvelope', title: 'ErrorEnvelope', description: 'The body of every failed response.' },
);

export const Pagination = Type.Object(
  {
    page: Type.Integer({ minimum: 1 }),
    pageSize: Type.Integer({ minimum: 1, maximum: 100 }),
    total: Type.Integer({ minimum: 0 }),
    totalPages: Type.Integer({ minimum: 0 }),
  },
  { $id: 'Pagination', title: 'Pagination' },
);

export function envelope<T extends TSchema>(data: T, description: string) {
  return Type.Object({ success: Type.Literal(true), data }, { description });
}

export function listEnvelope<T extends TSchema>(item: T, description: string) {
  return Type.Object(
    { success: Type.Literal(true), data: Type.Array(item), meta: Type.Object({ pagination: Type.Ref(Pagination) }) },
    { description },
  );
}

/** The page a list request asks for: api-v1.md section 8 defaults (page 1, 20 items). */
export function requestedPage(query: { page?: number; pageSize?: number }): { page: number; pageSize: number } {
  return { page: query.page ?? 1, pageSize: query.pageSize ?? 20 };
}

/** A list response: one page of items and the pagination of api-v1.md 2.1. */
export function pageEnvelope<T>(items: T[], total: number, page: { page: number; pageSize: number }) {
  return {
    success: true as const,
    data: items,
    meta: { pagination: { ...page, total, totalPages: Math.ceil(total / page.pageSize) } },
  };
}

const integerHeader = (description: string) => ({ schema: { type: 'integer' }, description });

/** Headers on every response (api-v1.md section 8). */
export const COMMON_HEADERS = {
  'X-Request-Id': { schema: { type: 'string', pattern: '^req_' }, description: 'Unique id of this request.' },
  'X-RateLimit-Limit': integerHeader('Requests allowed per one-minute window for this API key.'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'X-RateLimit-Reset': integerHeader('Unix time (seconds) at which the current window resets.'),
};

/** Error responses every v1 route can give, with their meanings. Route-specific ones are added per route. */
export const COMMON_ERRORS: Record<number, string> = {
  400: 'BAD_REQUEST (body is not valid JSON) or VALIDATION_ERROR (the message and `error.field` name the field).',
  401: 'UNAUTHORIZED (x-api-key missing) or INVALID_API_KEY (unknown, revoked or expired key).',
  403: "FORBIDDEN (the key's owner is no longer a member), FEATURE_NOT_AVAILABLE (tier below Starter) or TIER_LIMIT_EXCEEDED (monthly quota used).",
  404: 'NOT_FOUND.',
  405: 'METHOD_NOT_ALLOWED: the path exists but not with this method.',
  429: 'RATE_LIMITED: more than the per-key limit in the current minute (or too many failed authentications from this address). Retry-After gives the seconds to wait.',
  500: 'INTERNAL_ERROR: never carries internal details.',
  503: 'SERVICE_UNAVAILABLE: a deployment with REDIS_URL cannot reach its shared counters (Redis), or is rebuilding them after Redis lost them; nothing was done. Retry-After gives the seconds to wait.',
};

export const BODY_ERRORS: Record<number, string> = {
  413: 'PAYLOAD_TOO_LARGE: the body is over 64 KiB.',
  415: 'UNSUPPORTED_MEDIA_TYPE: the body must be sent as application/json.',
};

/** Builds the `response` part of a route schema: the success responses plus the error envelope for each code. */
export function responses(success: Record<number, TSchema>, errors: Record<number, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(success)) out[status] = schema;
  for (const [status, description] of Object.entries(errors)) {
    out[status] = { ...Type.Ref(ErrorEnvelope), description };
  }
  return out;
}
