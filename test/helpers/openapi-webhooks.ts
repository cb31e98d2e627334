import assert from 'node:assert/strict';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { TestApp } from './harness.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The OpenAPI document's description of a webhook event: its operation and its body's schema. */
export async function webhookOfOpenApi(t: TestApp, event: string): Promise<{ doc: Json; name: string; schema: Json }> {
  const res = await t.request('GET', '/openapi.json');
  assert.equal(res.status, 200, res.text);
  const doc = res.body as Json;
  const operation = doc.webhooks?.[event]?.post;
  assert.ok(operation, `webhooks: ${JSON.stringify(Object.keys(doc.webhooks ?? {}))}`);
  const ref: string = operation.requestBody.content['application/json'].schema.$ref;
  const name = ref.replace('#/components/schemas/', '');
  const schema = doc.components.schemas[name];
  assert.ok(schema, ref);
  return { doc, name, schema };
}

/**
 * The OpenAPI document describes a webhook event with the fields a real delivery carries: nothing is
 * sent that its schema does not list (closed objects, where the schema writes them out), and every
 * field it requires is sent. With `allRequired`, every field is required (always sent).
 */
export async function assertDescribedByOpenApi(t: TestApp, event: string, body: Json, allRequired: boolean) {
  const { doc, name, schema } = await webhookOfOpenApi(t, event);
  const closedEverywhere = (node: Json, path: string): void => {
    if (node.type === 'array') return closedEverywhere(node.items, `${path}[]`);
    if (node.type !== 'object' || !node.properties) return;
    assert.equal(node.additionalProperties, false, `${path} is closed`);
    if (allRequired)
      assert.deepEqual([...node.required].sort(), Object.keys(node.properties).sort(), `${path}: every field is sent`);
    for (const [key, child] of Object.entries(node.properties)) closedEverywhere(child as Json, `${path}.${key}`);
  };
  closedEverywhere(schema, name);
  const ajv = new Ajv.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // Components the schema refers to (`#/components/schemas/...`) resolve against the document's.
  const check = ajv.compile({ ...schema, components: doc.components });
  assert.ok(check(body), `${name}: ${ajv.errorsText(check.errors)}\n${JSON.stringify(body)}`);
  // A field the document does not name fails the check, and so does a required one the delivery lacks.
  assert.equal(check({ ...body, extra: 1 }), false);
  const inner = Object.keys(body).find((k) => !['event', 'timestamp', 'organization'].includes(k))!;
  const innerSchema = schema.properties[inner] as Json;
  const resolved: Json = innerSchema.$ref
    ? doc.components.schemas[(innerSchema.$ref as string).replace('#/components/schemas/', '')]
    : innerSchema;
  const [first, ...rest] = resolved.required as string[];
  assert.ok(first && rest, `${name}.${inner} requires fields`);
  const { [first]: _dropped, ...lacking } = body[inner];
  assert.equal(check({ ...body, [inner]: lacking }), false, `${name}.${inner} without ${first}`);
}
