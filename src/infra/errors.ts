/**
 * One error model for the whole service: services throw AppError, one HTTP handler turns it into the
 * envelope of api-v1.md 2.1. Codes and statuses follow api-v1.md section 7 and DECISIONS.md.
 */
/** Every error code of the service with its HTTP status: the one list (the OpenAPI enum is made from it). */
export const STATUS_OF = {
  UNAUTHORIZED: 401,
  INVALID_API_KEY: 401,
  FORBIDDEN: 403,
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_MISMATCH: 422,
  TIER_LIMIT_EXCEEDED: 403,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  FEATURE_NOT_AVAILABLE: 403,
  LISTS_NOT_READY: 503,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof STATUS_OF;

export const ERROR_CODES = Object.keys(STATUS_OF) as ErrorCode[];

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>;
  /** For VALIDATION_ERROR: the field at fault. */
  readonly field?: string;

  constructor(code: ErrorCode, message: string, options: { headers?: Record<string, string>; field?: string } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS_OF[code];
    this.headers = options.headers ?? {};
    if (options.field !== undefined) this.field = options.field;
  }
}

export function validationError(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field}: ${message}`, { field });
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}

/**
 * A JSON pointer into a request (`/identifiers/0/value`) as the client would write the field:
 * `identifiers[0].value`. Route validation and batch rows name fields the same way.
 */
export function fieldOfPointer(pointer: string): string {
  return pointer
    .replace(/^\//, '')
    .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
    .replace(/\//g, '.');
}
