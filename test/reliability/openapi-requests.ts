/**
 * Requests made from the service's own OpenAPI document (GET /openapi.json): every v1 operation,
 * its parameters and request body, as fast-check arbitraries (issue 17, 6c) and as a minimal valid
 * request (6d). A route added later (decisions, batches) is covered without touching these tests.
 */
import fc from 'fast-check';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Schema = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: { in: string; name: string; required?: boolean; schema: Schema }[];
  body?: Schema;
}

export function v1Operations(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [method, op] of Object.entries(operations)) {
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId ?? `${method} ${path}`),
        parameters: (op.parameters ?? []) as Operation['parameters'],
        ...(op.requestBody?.content?.['application/json']?.schema
          ? { body: op.requestBody.content['application/json'].schema as Schema }
          : {}),
      });
    }
  }
  return out;
}

export function resolveRef(doc: Schema, schema: Schema): Schema {
  let s = schema;
  while (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    s = doc.components.schemas[name] as Schema;
  }
  return s;
}

const junkString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 600 }),
  fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', "' or 1=1 --", '%00', '{"a":', 'null', '-1', '1e309', '٣'),
);

/** Values a schema accepts, most of the time, and anything at all otherwise. */
export function valueFor(doc: Schema, raw: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolveRef(doc, raw);
  const valid = validValue(doc, schema, depth);
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
}

function validValue(doc: Schema, schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((s: Schema) => valueFor(doc, s, depth)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case 'string':
      if (schema.pattern === '^[A-Za-z]{2}$') return fc.constantFrom('GB', 'us', 'ZZ', 'RU', 'xx');
      if (String(schema.pattern ?? '').includes('\\d{4}')) {
        return fc.oneof(
          fc
            .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
          fc.constantFrom('2023-02-30', '0000-00-00', '9999-99-99'),
        );
      }
      return fc.oneof(fc.string({ minLength: 1, maxLength: 60 }), junkString);
    case 'integer':
    case 'number':
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1000 }),
        fc.constantFrom(0, -1, 1.5, 1e12, Number.MAX_SAFE_INTEGER),
      );
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(doc, schema.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      if (depth > 2) return fc.constant({});
      const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, s] of props) record[name] = valueFor(doc, s, depth + 1);
      return fc.record(record, { requiredKeys: (schema.required ?? []) as string[] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

export interface FuzzRequest {
  operation: Operation;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: string;
}

/**
 * One request to one operation: path parameters from `ids` (real ones) or anything; query values
 * from the schema or anything, sometimes an unknown parameter; a body from the schema, any JSON, or
 * text that is no JSON; the key mostly valid; the content type mostly JSON.
 */
export function requestFor(doc: Schema, operation: Operation, ids: string[], key: string): fc.Arbitrary<FuzzRequest> {
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(
    ...pathParams.map(() =>
      fc.oneof(ids.length ? fc.constantFrom(...ids) : fc.constant('scr_0'), junkString, fc.string({ maxLength: 300 })),
    ),
  );
  const queryValues = fc.tuple(
    ...queryParams.map((p) =>
      fc.option(
        valueFor(doc, p.schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
        { nil: undefined },
      ),
    ),
  );
  const extraQuery = fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), junkString), { nil: undefined });
  const body = operation.body
    ? fc.oneof(
        { weight: 6, arbitrary: valueFor(doc, operation.body).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
        { weight: 1, arbitrary: fc.constant('') },
      )
    : fc.option(fc.constant('{}'), { nil: undefined, freq: 5 });
  const apiKey = fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>(key) },
    { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x')) },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | undefined>('text/plain', undefined, 'application/json; charset=latin1'),
    },
  );
  const idempotencyKey = fc.option(
    fc.string({ minLength: 1, maxLength: 300 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'k')),
    {
      nil: undefined,
      freq: 3,
    },
  );
  return fc
    .tuple(pathValues, queryValues, extraQuery, body, apiKey, contentType, idempotencyKey)
    .map(([pv, qv, extra, b, k, ct, ik]) => {
      let path = operation.path;
      pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, encodeURIComponent(String(pv[i])))));
      const query: [string, string][] = [];
      queryParams.forEach((p, i) => {
        const v = qv[i];
        if (v !== undefined) query.push([p.name, v]);
      });
      if (extra) query.push(extra);
      const headers: Record<string, string> = {};
      if (k !== undefined) headers['x-api-key'] = k;
      if (b !== undefined && ct !== undefined) headers['content-type'] = ct;
      if (ik !== undefined && operation.method === 'POST') headers['idempotency-key'] = ik;
      return { operation, path, query, headers, ...(b !== undefined ? { body: b } : {}) };
    });
}

/** The smallest body the schema accepts (required properties with plain values). */
export function minimalBody(doc: Schema, raw: Schema): unknown {
  const schema = resolveRef(doc, raw);
  if (Array.isArray(schema.anyOf)) return minimalBody(doc, schema.anyOf[0] as Schema);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of (schema.required ?? []) as string[]) out[name] = minimalBody(doc, schema.properties[name]);
      return out;
    }
    case 'string':
      return 'Test Name';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return null;
  }
}
