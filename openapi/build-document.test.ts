// Tests of the OpenAPI export: the document validates as OpenAPI 3.1 (pinned @seriousme/openapi-schema-validator),
// lists every catalog operation with its request body and envelope, marks assumed paths, and its schemas compile.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../api/operations.ts';
import { buildOpenApiDocument } from './build-document.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a generated document

const doc = buildOpenApiDocument() as Json;

function operationsOf(document: Json): Map<string, { path: string; method: string; op: Json }> {
  const out = new Map<string, { path: string; method: string; op: Json }>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) out.set((op as Json).operationId as string, { path, method, op: op as Json });
  }
  return out;
}

describe('OpenAPI export', () => {
  it('validates as an OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is refused by the validator when broken (the check can fail)', async () => {
    const broken = structuredClone(doc);
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('lists every operation of the catalog, with its method and path', () => {
    const ops = operationsOf(doc);
    expect([...ops.keys()].sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
    for (const op of OPERATIONS) {
      const found = ops.get(op.id);
      expect([found?.method, found?.path], op.id).toEqual([op.method.toLowerCase(), op.path]);
    }
  });

  it('marks the paths the spec does not show with x-path-assumed, and only those', () => {
    const ops = operationsOf(doc);
    for (const op of OPERATIONS) expect(ops.get(op.id)?.op['x-path-assumed'], op.id).toBe(op.pathAssumed);
    expect(OPERATIONS.some((op) => op.pathAssumed)).toBe(true);
  });

  it('gives every write its request body schema from schemas/ and every read none', () => {
    const ops = operationsOf(doc);
    for (const op of OPERATIONS) {
      const body = ops.get(op.id)?.op.requestBody as Json | undefined;
      if (op.requestBody === undefined) {
        expect(body, op.id).toBeUndefined();
        continue;
      }
      const ref = body?.content['application/json'].schema.$ref as string;
      const component = doc.components.schemas[ref.replace('#/components/schemas/', '')] as Json;
      const file = JSON.parse(readFileSync(new URL(`../schemas/${op.requestBody}-request.schema.json`, import.meta.url), 'utf8')) as Json;
      expect([component.required, Object.keys(component.properties)], op.id).toEqual([file.required, Object.keys(file.properties)]);
      expect(body?.required, op.id).toBe(true);
    }
  });

  it('describes the response as the envelope with the payload kind, and the gift card list envelope where the catalog says so', () => {
    const ops = operationsOf(doc);
    for (const op of OPERATIONS) {
      const schema = ops.get(op.id)?.op.responses['200'].content['application/json'].schema as Json;
      expect(schema.allOf[0].$ref, op.id).toBe(
        op.envelope === 'giftcard-list' ? '#/components/schemas/GiftcardListEnvelope' : '#/components/schemas/Envelope',
      );
      expect(schema.allOf[1].properties.payLoad.anyOf[0].$ref, op.id).toBe(
        `#/components/schemas/Payload${op.payloadKind[0]?.toUpperCase()}${op.payloadKind.slice(1)}`,
      );
    }
  });

  it('requires HTTP Basic authentication on every operation', () => {
    expect(doc.components.securitySchemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(doc.security).toEqual([{ basicAuth: [] }]);
  });

  it('has component schemas that compile as JSON Schema 2020-12 with every $ref resolved', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    for (const name of Object.keys(doc.components.schemas as Json)) {
      expect(() => ajv.getSchema(`doc#/components/schemas/${name}`), name).not.toThrow();
      expect(ajv.getSchema(`doc#/components/schemas/${name}`), name).toBeDefined();
    }
  });

  it('uses the configured write paths and server', () => {
    const custom = buildOpenApiDocument({
      writePaths: { 'v2.transaction.pin': '/api/v2/pin/buy' },
      serverUrl: 'http://127.0.0.1:8080',
    }) as Json;
    expect(operationsOf(custom).get('v2.transaction.pin')?.path).toBe('/api/v2/pin/buy');
    expect(custom.servers[0].variables.base_url.default).toBe('http://127.0.0.1:8080');
  });

  it('is the same document every time', () => {
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(doc));
  });
});
