// Tests of the schema code generator: committed output is fresh, staleness is detected, schemas follow the
// conventions, and the generated validators bundle for k6 (esbuild, ES2019, browser platform) and run there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import {
  BANNER,
  check,
  GENERATED_FILES,
  generate,
  GenError,
  inlinePayloadRefs,
  isReportSchema,
  loadSchemas,
  requestBodyName,
  ROOT_DIR,
  SCHEMA_ID_PREFIX,
  validatorName,
} from './gen.ts';
import { OPERATIONS } from '../api/operations.ts';

const GENERATED = Object.values(GENERATED_FILES);

/** A throwaway copy of the schema sources and committed generated files, for mutation tests. */
function copyTree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gh-gen-'));
  mkdirSync(join(dir, 'schemas', 'generated'), { recursive: true });
  for (const name of readdirSync(join(ROOT_DIR, 'schemas'))) {
    if (name.endsWith('.schema.json')) cpSync(join(ROOT_DIR, 'schemas', name), join(dir, 'schemas', name));
  }
  for (const path of GENERATED) cpSync(join(ROOT_DIR, path), join(dir, path));
  return dir;
}

describe('gen --check', () => {
  let dir = '';
  beforeEach(() => {
    dir = copyTree();
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes on the committed tree', async () => {
    expect(await check()).toEqual({ ok: true, stale: [] });
  });

  it('passes on an unmodified copy', async () => {
    expect(await check(dir)).toEqual({ ok: true, stale: [] });
  });

  it('names a hand-edited generated file', async () => {
    const path = join(dir, GENERATED_FILES.validators);
    writeFileSync(path, readFileSync(path, 'utf8').replace('maxLength', 'maxLengthX'));
    expect(await check(dir)).toEqual({ ok: false, stale: [GENERATED_FILES.validators] });
  });

  it('names the outputs a schema edit makes stale', async () => {
    const path = join(dir, 'schemas', 'topup-request.schema.json');
    const schema = JSON.parse(readFileSync(path, 'utf8')) as { properties: { correlationId: { maxLength: number; description: string } } };
    schema.properties.correlationId.maxLength = 49;
    schema.properties.correlationId.description = 'edited';
    writeFileSync(path, JSON.stringify(schema, null, 2));
    expect(await check(dir)).toEqual({ ok: false, stale: [GENERATED_FILES.types, GENERATED_FILES.validators] });
  });

  it('names a missing generated file and a stray one', async () => {
    unlinkSync(join(dir, GENERATED_FILES.validatorsDts));
    writeFileSync(join(dir, 'schemas', 'generated', 'old.js'), '');
    expect(await check(dir)).toEqual({ ok: false, stale: [GENERATED_FILES.validatorsDts, 'schemas/generated/old.js'] });
  });

  it('rejects a schema whose $id does not match its file name', async () => {
    const path = join(dir, 'schemas', 'pin-request.schema.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('pin-request.schema.json', 'pin.schema.json'));
    expect(() => loadSchemas(dir)).toThrow(GenError);
    expect(() => loadSchemas(dir)).toThrow(/pin-request\.schema\.json: \$id must be/);
  });
});

describe('generated output', () => {
  it('is deterministic and carries the banner', async () => {
    const first = await generate();
    const second = await generate();
    expect([...first.keys()]).toEqual(GENERATED);
    for (const [path, content] of first) {
      expect(content, path).toBe(second.get(path));
      expect(content.split('\n')[0], path).toBe(BANNER);
    }
  });

  it('derives the request bodies from the schema files: every catalog requestBody has a schema, a type and a validator', async () => {
    const { REQUEST_BODY_NAMES, REQUEST_VALIDATORS } = await import('../schemas/generated/request-bodies.ts');
    const fromFiles = loadSchemas().flatMap((s) => (requestBodyName(s.file) === undefined ? [] : [requestBodyName(s.file)]));
    expect([...REQUEST_BODY_NAMES]).toEqual(fromFiles);
    for (const op of OPERATIONS.filter((o) => o.method === 'POST')) {
      expect(op.requestBody, op.id).toBeDefined();
      expect(REQUEST_BODY_NAMES, op.id).toContain(op.requestBody);
      expect(typeof REQUEST_VALIDATORS[op.requestBody!], op.id).toBe('function');
    }
    // And the map is the schema's own validator: a body the schema rejects is rejected through it.
    expect(REQUEST_VALIDATORS.topup({ skuId: 1, amount: 1, mobile: '1876', correlationId: 'c'.repeat(51) })).toBe(false);
  });

  it('a new *-request.schema.json becomes a request body by generation alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-gen-body-'));
    try {
      mkdirSync(join(dir, 'schemas'), { recursive: true });
      for (const name of readdirSync(join(ROOT_DIR, 'schemas'))) {
        if (name.endsWith('.schema.json')) cpSync(join(ROOT_DIR, 'schemas', name), join(dir, 'schemas', name));
      }
      const schema = JSON.parse(readFileSync(join(dir, 'schemas', 'esim-request.schema.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(
        join(dir, 'schemas', 'data-bundle-request.schema.json'),
        JSON.stringify({ ...schema, $id: `${SCHEMA_ID_PREFIX}data-bundle-request.schema.json`, title: 'DataBundleRequest' }),
      );
      const bodies = (await generate(dir)).get(GENERATED_FILES.requestBodies) ?? '';
      expect(bodies).toContain("'data-bundle'");
      expect(bodies).toContain("  'data-bundle': validateDataBundleRequest,");
      expect(bodies).toContain("  'data-bundle': DataBundleRequest;");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exports one validator per wire schema, named after its title (report schemas get types only)', async () => {
    const validators = await import('../schemas/generated/validators.js');
    const titles = loadSchemas()
      .filter((s) => !isReportSchema(s))
      .map((s) => s.title);
    expect(Object.keys(validators).sort()).toEqual(titles.map(validatorName).sort());
  });
});

describe('schema conventions', () => {
  const schemas = loadSchemas();

  it('has one request schema per request body of the operation catalog', () => {
    const bodies = new Set(OPERATIONS.flatMap((op) => (op.requestBody === undefined ? [] : [op.requestBody])));
    const requestFiles = schemas
      .filter((s) => s.file.endsWith('-request.schema.json'))
      .map((s) => s.file.replace('-request.schema.json', ''));
    expect(requestFiles.sort()).toEqual([...bodies].sort());
  });

  it.each(schemas.map((s) => [s.file, s] as const))('%s: draft 2020-12, absolute $id, described properties, open objects', (_file, s) => {
    expect(s.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(s.id.startsWith(SCHEMA_ID_PREFIX)).toBe(true);
    expect(typeof s.schema.description).toBe('string');
    // Versioning 3: new request and response fields are non-breaking, so no schema may close its objects.
    expect(JSON.stringify(s.schema)).not.toMatch(/"(additionalProperties|unevaluatedProperties)":\s*false/);
    const properties = (s.schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, property] of Object.entries(properties)) {
      expect(typeof property.description, `${s.file} ${name}`).toBe('string');
      // An id the spec types int64 (a transaction id) is an integer without the int32 bounds; its description says so.
      if (property.type === 'integer' && !String(property.description).includes('int64'))
        expect([property.minimum, property.maximum], `${s.file} ${name} is int32`).toEqual([-2147483648, 2147483647]);
    }
  });
});

describe('inlinePayloadRefs', () => {
  const record = {
    $id: `${SCHEMA_ID_PREFIX}payload-record.schema.json`,
    title: 'PayloadRecord',
    type: 'object',
    properties: { skuId: { type: 'integer' } },
  };
  const byId = new Map<string, Record<string, unknown>>([[record.$id, record]]);

  it('replaces a reference to a payload schema by its body under allOf, keeping what sits beside the $ref', () => {
    expect(inlinePayloadRefs({ type: 'array', items: { $ref: record.$id } }, byId)).toEqual({
      type: 'array',
      items: { allOf: [{ type: 'object', properties: { skuId: { type: 'integer' } } }] },
    });
    expect(inlinePayloadRefs({ $ref: record.$id, properties: { a: {} } }, byId)).toEqual({
      properties: { a: {} },
      allOf: [{ type: 'object', properties: { skuId: { type: 'integer' } } }],
    });
  });

  it('leaves other references alone, and refuses a payload schema with #-references (they would not resolve inlined)', () => {
    const other = { $ref: `${SCHEMA_ID_PREFIX}additional-info.schema.json` };
    expect(inlinePayloadRefs(other, byId)).toEqual(other);
    const bad = new Map([[record.$id, { ...record, properties: { skuId: { $ref: '#/$defs/int32' } } }]]);
    expect(() => inlinePayloadRefs({ $ref: record.$id }, bad)).toThrow(GenError);
  });
});

describe('k6 bundle of the validators', () => {
  it('bundles with the k6 esbuild settings, needs no loader, and validates when evaluated', async () => {
    const entry = [
      "import { validateTopupRequest, validateEnvelope } from './schemas/generated/validators.js';",
      "import { validateRequestBody } from './api/validation.ts';",
      'export function run() {',
      "  const good = validateTopupRequest({ skuId: 1, amount: 1, mobile: '1876', correlationId: 'c' });",
      "  const bad = validateRequestBody('topup', { skuId: 1, amount: 1, mobile: '1876', correlationId: 'c'.repeat(51) });",
      "  const envelope = validateEnvelope({ responseCode: '000', responseMessage: 'x', payLoad: 1 });",
      '  return { good, bad, envelope };',
      '}',
    ].join('\n');
    const result = await build({
      stdin: { contents: entry, resolveDir: ROOT_DIR, loader: 'ts', sourcefile: 'k6-entry.ts' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2019',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0]?.text ?? '';
    expect(code.length).toBeGreaterThan(0);
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).not.toMatch(/["']node:/);
    // ES2020+ syntax k6 v0.48's Babel pass rejects must have been lowered.
    expect(code).not.toMatch(/\?\?|\?\.\w/);

    const mod = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as {
      run: () => { good: boolean; bad: { valid: boolean; errors?: { message: string }[] }; envelope: boolean };
    };
    const out = mod.run();
    expect(out.good).toBe(true);
    expect(out.bad.valid).toBe(false);
    expect(out.bad.errors?.map((e) => e.message)).toEqual(['correlationId must be at most 50 characters']);
    expect(out.envelope).toBe(false);
  });
});
