// Builds an OpenAPI 3.1 document of the gateway from the operation catalog and the wire schemas: both versions,
// HTTP Basic auth, the envelope per payload kind, request bodies, and assumed paths marked with x-path-assumed.
import { isReportSchemaFile } from '../schemas/report-schemas.ts';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { OPERATIONS, operationPairs, type Operation, type ParamSpec, type PayloadKind } from '../api/operations.ts';
import { resolveOperationPath } from '../api/request-builder.ts';

/** Every schema's `$id` is this prefix + its file name (schemas/README.md). */
const SCHEMA_ID_PREFIX = 'https://gateway-harness.dev/schemas/';
const SCHEMAS_DIR = fileURLToPath(new URL('../schemas/', import.meta.url));
/** Placeholder host under the reserved .invalid TLD: the harness never embeds a real gateway host. */
export const DEFAULT_SERVER = 'https://gateway.example.invalid';
export const OPENAPI_VERSION = '3.1.0';

export interface OpenApiOptions {
  /** Default of the `base_url` server variable (e.g. the configured target). */
  readonly serverUrl?: string;
  /** Per-target overrides of the assumed write paths (config `writePaths`). */
  readonly writePaths?: Readonly<Record<string, string>>;
  readonly version?: string;
}

type Json = Record<string, unknown>;

interface LoadedSchema {
  readonly file: string;
  readonly title: string;
  readonly schema: Json;
}

/** The wire schemas (schemas/*.schema.json without the report schemas), sorted by file name. */
export function loadWireSchemas(dir: string = SCHEMAS_DIR): LoadedSchema[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.schema.json') && !isReportSchemaFile(name))
    .sort()
    .map((file) => {
      const schema = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Json;
      return { file, title: String(schema.title), schema };
    });
}

/** Rewrites cross-file `$ref`s to component refs and drops `$id`/`$schema` (the document's dialect applies). */
function toComponent(value: unknown, titleOfFile: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => toComponent(v, titleOfFile));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value as Json)) {
    if (key === '$id' || key === '$schema') continue;
    if (key === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA_ID_PREFIX)) {
      const title = titleOfFile.get(v.slice(SCHEMA_ID_PREFIX.length));
      if (title === undefined) throw new Error(`openapi: ${v} names no schema in schemas/`);
      out[key] = `#/components/schemas/${title}`;
      continue;
    }
    out[key] = toComponent(v, titleOfFile);
  }
  return out;
}

const ref = (title: string): Json => ({ $ref: `#/components/schemas/${title}` });

const PAYLOAD_COMPONENT: Readonly<Record<PayloadKind, string>> = {
  number: 'PayloadNumber',
  object: 'PayloadObject',
  array: 'PayloadArray',
};

function paramSchema(param: ParamSpec): Json {
  const base: Json = param.type === 'string' ? { type: 'string' } : { type: 'integer', format: param.type };
  return param.default === undefined ? base : { ...base, default: param.default };
}

function parameters(op: Operation): Json[] {
  return op.params.map((param) => ({
    name: param.name,
    in: param.in,
    required: param.required,
    description: param.description,
    schema: paramSchema(param),
  }));
}

function requestBodyTitle(op: Operation, titleOfFile: ReadonlyMap<string, string>): string {
  const title = titleOfFile.get(`${op.requestBody}-request.schema.json`);
  if (title === undefined) throw new Error(`openapi: ${op.id} has no schemas/${op.requestBody}-request.schema.json`);
  return title;
}

function responseSchema(op: Operation): Json {
  const envelope = op.envelope === 'giftcard-list' ? 'GiftcardListEnvelope' : 'Envelope';
  return {
    allOf: [
      ref(envelope),
      {
        type: 'object',
        properties: { payLoad: { anyOf: [ref(PAYLOAD_COMPONENT[op.payloadKind]), { type: 'null' }] } },
      },
    ],
  };
}

function operationObject(op: Operation, titleOfFile: ReadonlyMap<string, string>, counterpart: ReadonlyMap<string, string>): Json {
  const doc: Json = {
    operationId: op.id,
    summary: op.summary,
    description:
      `Spec section: ${op.specSection}. Payload kind: ${op.payloadKind}.` +
      (op.pathAssumed
        ? ' The spec does not show this path ("not shown"): the path is assumed and overridable per target (writePaths).'
        : '') +
      (op.charges ? " Charges the agent's account on success (production)." : ''),
    tags: [op.version, op.group],
  };
  const params = parameters(op);
  if (params.length > 0) doc.parameters = params;
  if (op.requestBody !== undefined) {
    doc.requestBody = { required: true, content: { 'application/json': { schema: ref(requestBodyTitle(op, titleOfFile)) } } };
  }
  doc.responses = {
    '200': {
      description:
        "The envelope. Business outcomes are delivered with HTTP 200; the call succeeded only when responseCode is '000' (spec: Errors, delivery rules 1 and 2).",
      content: { 'application/json': { schema: responseSchema(op) } },
    },
    default: {
      description:
        'Any HTTP status other than 200: the client treats the call as failed (spec: Errors, delivery rule 3). Body shape: not shown.',
    },
  };
  doc['x-purpose'] = op.purpose;
  doc['x-payload-kind'] = op.payloadKind;
  doc['x-charges'] = op.charges;
  doc['x-path-assumed'] = op.pathAssumed;
  const other = counterpart.get(op.id);
  if (other !== undefined) doc['x-other-version'] = other;
  return doc;
}

/** The whole document; deterministic for the same catalog, schemas and options. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): Json {
  const schemas = loadWireSchemas();
  const titleOfFile = new Map(schemas.map((s) => [s.file, s.title]));
  const components: Json = {};
  for (const s of schemas) components[s.title] = toComponent(s.schema, titleOfFile);
  const counterpart = new Map<string, string>();
  for (const pair of operationPairs()) {
    counterpart.set(pair.v1.id, pair.v2.id);
    counterpart.set(pair.v2.id, pair.v1.id);
  }
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const path = resolveOperationPath(op, options.writePaths);
    const item = (paths[path] ??= {});
    item[op.method.toLowerCase()] = operationObject(op, titleOfFile, counterpart);
  }
  return {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Mobile Top-up and Prepaid Products Gateway API',
      version: options.version ?? 'v1 and v2',
      description:
        'Generated by gateway-harness from its operation catalog and wire schemas (v1 and v2). Only what the spec states is described: ' +
        'payloads are given by kind (number, object, array), as the spec lists them; write paths the spec does not show carry x-path-assumed: true.',
    },
    servers: [
      {
        url: '{base_url}',
        description: 'One base address for the sandbox environment and one for production (spec: "Calls are made at {base_url}").',
        variables: {
          base_url: { default: options.serverUrl ?? DEFAULT_SERVER, description: 'Base URL of the gateway, without /api/v1 or /api/v2' },
        },
      },
    ],
    security: [{ basicAuth: [] }],
    tags: [
      { name: 'v1', description: 'Version v1 (paths under /api/v1)' },
      { name: 'v2', description: 'Version v2 (paths under /api/v2)' },
    ],
    paths,
    components: {
      securitySchemes: {
        basicAuth: {
          type: 'http',
          scheme: 'basic',
          description: 'Spec (Authentication): every call uses HTTP Basic Authentication with a user id and password issued to the agent.',
        },
      },
      schemas: components,
    },
    'x-generated-by': 'gateway-harness openapi',
  };
}
