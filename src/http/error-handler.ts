import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, fieldOfPointer } from '../infra/errors.js';

/** Turns every failure into the envelope of api-v1.md 2.1. A 500 never echoes an internal message. */

interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
  /** Present when Ajv runs with `verbose`. */
  parentSchema?: { description?: unknown };
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Turns an Ajv error into `<field>: <what is wrong>`, naming the field as the client sent it. */
export function describeValidation(
  errors: AjvError[],
  context: string | undefined,
): { field: string; message: string } {
  const first = errors[0] ?? {};
  // An element of an array is named as the client would write it: identifiers[0].value.
  let field = fieldOfPointer(first.instancePath ?? '');
  if (first.keyword === 'required' && typeof first.params?.missingProperty === 'string') {
    field = field ? `${field}.${first.params.missingProperty}` : first.params.missingProperty;
    return { field, message: `${field} is required` };
  }
  if (first.keyword === 'additionalProperties' && typeof first.params?.additionalProperty === 'string') {
    field = first.params.additionalProperty;
    return {
      field,
      message: `${field} is not a known ${PART_NAMES[context ?? ''] ?? ''} parameter`.replace('  ', ' '),
    };
  }
  if (!field) field = PART_NAMES[context ?? ''] ?? 'request';
  let what = first.message ?? 'is invalid';
  // A TypeBox union of literals compiles to anyOf/const: Ajv reports one `const` error per branch.
  const constants = errors
    .filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
    .map((e) => e.params?.allowedValue);
  if (first.keyword === 'enum' && Array.isArray(first.params?.allowedValues)) {
    what = `must be one of ${(first.params.allowedValues as unknown[]).join(', ')}`;
  } else if (first.keyword === 'const' && constants.length > 1) {
    what = `must be one of ${constants.join(', ')}`;
  } else if (first.keyword === 'anyOf' || first.keyword === 'union') {
    what = 'has an invalid value';
  } else if (first.keyword === 'pattern' && typeof first.parentSchema?.description === 'string') {
    what = `is not in the expected format (${first.parentSchema.description})`;
  }
  return { field, message: `${field} ${what}` };
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.status(error.status).send({
    success: false,
    error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) },
  });
}

export function toAppError(error: FastifyError & { validation?: AjvError[]; validationContext?: string }): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const { field, message } = describeValidation(error.validation, error.validationContext);
    return new AppError('VALIDATION_ERROR', message, { field });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('BAD_REQUEST', 'the request body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'the request body is larger than 64 KiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? new AppError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json')
        : new AppError('BAD_REQUEST', 'the Content-Length header does not match the body');
    default:
      break;
  }
  // JSON.parse errors surface as SyntaxError with status 400 from the content-type parser.
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return new AppError('BAD_REQUEST', 'the request body is not valid JSON');
  }
  if (error.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', 'the request body is larger than 64 KiB');
  if (error.statusCode === 415)
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('BAD_REQUEST', 'the request could not be read');
  }
  return new AppError('INTERNAL_ERROR', 'an internal error occurred; quote the X-Request-Id header when reporting it');
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.status >= 500 && appError.code === 'INTERNAL_ERROR') {
      request.log.error({ err: error }, 'request failed');
    }
    return sendError(reply, appError);
  });
}

/** Fastify's router refuses these before any route or hook runs (the longest path parameter it reads). */
export const MAX_PARAM_LENGTH = 100;

/**
 * Errors the router raises before a route runs (Fastify's `frameworkErrors`): a path that is not valid
 * percent-encoding, a path parameter longer than MAX_PARAM_LENGTH. No hook has run, so the request id
 * header is set here; the envelope is the one every other error has.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', request.id);
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('VALIDATION_ERROR', `path has a parameter longer than ${MAX_PARAM_LENGTH} characters`, {
          field: 'path',
        })
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError('BAD_REQUEST', 'the path is not valid percent-encoding (RFC 3986 section 2.1)')
        : toAppError(error);
  void sendError(reply, appError);
}
