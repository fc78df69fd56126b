// The baseline on disk: a small index.json plus one file per observed operation (operations/<id>.json), written with
// a stable key order so they can be committed and diffed. Schemas hold shapes; data-dependent parts sit in their own keys.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HarnessError } from '../api/errors.ts';
import { findOperation, OPERATIONS } from '../api/operations.ts';
import type { Environment } from '../api/target-config.ts';
import { stableStringify, type InferredSchema } from './infer-schema.ts';

export const BASELINE_FORMAT = 1;
export const INDEX_FILE = 'index.json';
export const OPERATIONS_DIR = 'operations';
/** Default directory of `baseline record --out-dir` and `baseline check --baseline` (relative to the working directory). */
export const DEFAULT_BASELINE_DIR = 'gateway-baseline';
const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** observed: a schema was inferred; unavailable: every call failed; not-observed: no call was made (reason says why). */
export type EntryState = 'observed' | 'unavailable' | 'not-observed';

export interface ResponseHeaders {
  /** Header names present in every successful response. */
  readonly always: readonly string[];
  /** Header names present in some of them only. */
  readonly sometimes: readonly string[];
}

export interface BaselineEntry {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly pathAssumed: boolean;
  /** 'status' when the result came from the status endpoint because the submission answered '852'. */
  readonly observedVia?: 'status';
  readonly responseHeaders: ResponseHeaders;
  /** JSON Schema 2020-12 of the successful envelope (payLoad and envelope-level extras such as next_cursor). */
  readonly schema: InferredSchema;
  /**
   * Data-dependent, kept apart from the schema so a re-record on new data changes only these lines: bottom-k digest
   * sketches of each field's values (to recognize a rename: same values under a new name), never the values themselves.
   */
  readonly valueSketches: Readonly<Record<string, string>>;
  /** Values seen at category fields (the spec's category names: Pin, Rtr, Bill Pay, Sim, Gift Card, eSim). */
  readonly vocabularies: Readonly<Record<string, readonly string[]>>;
}

export interface IndexEntry {
  readonly operationId: string;
  readonly state: EntryState;
  /** Relative path of the entry file (observed only). */
  readonly file?: string;
  readonly reason?: string;
}

export interface BaselineIndex {
  readonly format: number;
  readonly generator: string;
  /** 'embedded sandbox' or the base URL (never credentials). */
  readonly target: string;
  readonly environment: Environment;
  readonly operations: readonly IndexEntry[];
}

export interface Baseline {
  readonly dir: string;
  readonly index: BaselineIndex;
  readonly entries: ReadonlyMap<string, BaselineEntry>;
}

export function entryFile(operationId: string): string {
  return `${OPERATIONS_DIR}/${operationId}.json`;
}

/** The entry as written: the schema gets its dialect and a title. */
function entryDocument(entry: BaselineEntry): unknown {
  return {
    operationId: entry.operationId,
    method: entry.method,
    path: entry.path,
    pathAssumed: entry.pathAssumed,
    ...(entry.observedVia === undefined ? {} : { observedVia: entry.observedVia }),
    responseHeaders: { always: [...entry.responseHeaders.always], sometimes: [...entry.responseHeaders.sometimes] },
    schema: { $schema: JSON_SCHEMA_DIALECT, title: `${entry.operationId}: successful response envelope (inferred)`, ...entry.schema },
    valueSketches: entry.valueSketches,
    vocabularies: entry.vocabularies,
  };
}

/** Writes index.json and one file per observed operation; removes entry files of operations no longer observed. */
export function writeBaseline(dir: string, index: BaselineIndex, entries: readonly BaselineEntry[]): string[] {
  const root = resolve(dir);
  const opsDir = join(root, OPERATIONS_DIR);
  mkdirSync(opsDir, { recursive: true });
  const written: string[] = [];
  const keep = new Set<string>();
  for (const entry of entries) {
    const rel = entryFile(entry.operationId);
    writeFileSync(join(root, rel), stableStringify(entryDocument(entry)));
    keep.add(`${entry.operationId}.json`);
    written.push(rel);
  }
  for (const name of readdirSync(opsDir)) {
    // Only files this command writes: an operation id of the catalog plus .json.
    if (!keep.has(name) && name.endsWith('.json') && findOperation(name.slice(0, -'.json'.length)) !== undefined)
      rmSync(join(opsDir, name));
  }
  writeFileSync(join(root, INDEX_FILE), stableStringify(index));
  written.push(INDEX_FILE);
  return written;
}

function bad(path: string, problem: string): HarnessError {
  return new HarnessError('GH_ERR_CONFIG', `baseline ${path}: ${problem}`);
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw bad(path, 'cannot be read');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw bad(path, 'is not valid JSON');
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function parseEntry(path: string, value: unknown, operationId: string): BaselineEntry {
  if (!isRecord(value)) throw bad(path, 'is not a JSON object');
  if (value.operationId !== operationId) throw bad(path, `names operation ${JSON.stringify(value.operationId)}, expected ${operationId}`);
  const headers = value.responseHeaders;
  if (!isRecord(headers) || !isStringArray(headers.always) || !isStringArray(headers.sometimes))
    throw bad(path, 'responseHeaders must hold string arrays always and sometimes');
  if (!isRecord(value.schema)) throw bad(path, 'schema must be an object');
  const sketches = value.valueSketches ?? {};
  if (!isRecord(sketches) || !Object.values(sketches).every((s) => typeof s === 'string'))
    throw bad(path, 'valueSketches must map paths to strings');
  const vocabularies = value.vocabularies ?? {};
  if (!isRecord(vocabularies) || !Object.values(vocabularies).every(isStringArray))
    throw bad(path, 'vocabularies must map paths to string arrays');
  const { $schema: _dialect, title: _title, ...schema } = value.schema;
  return {
    operationId,
    method: String(value.method ?? ''),
    path: String(value.path ?? ''),
    pathAssumed: value.pathAssumed === true,
    ...(value.observedVia === 'status' ? { observedVia: 'status' as const } : {}),
    responseHeaders: { always: headers.always, sometimes: headers.sometimes },
    schema: schema as InferredSchema,
    valueSketches: sketches as Record<string, string>,
    vocabularies: vocabularies as Record<string, string[]>,
  };
}

export function baselineExists(dir: string): boolean {
  return existsSync(join(resolve(dir), INDEX_FILE));
}

/** Reads and checks a baseline directory; any problem is GH_ERR_CONFIG (exit 2) naming the file. */
export function readBaseline(dir: string): Baseline {
  const root = resolve(dir);
  const indexPath = join(root, INDEX_FILE);
  if (!existsSync(indexPath)) throw bad(root, `has no ${INDEX_FILE} (record one with: gateway-harness baseline record --out-dir ${dir})`);
  const raw = readJson(indexPath);
  if (!isRecord(raw)) throw bad(indexPath, 'is not a JSON object');
  if (raw.format !== BASELINE_FORMAT)
    throw bad(indexPath, `format ${JSON.stringify(raw.format)} is not supported (expected ${BASELINE_FORMAT})`);
  if (!Array.isArray(raw.operations)) throw bad(indexPath, 'operations must be an array');
  const operations: IndexEntry[] = [];
  const entries = new Map<string, BaselineEntry>();
  for (const item of raw.operations) {
    if (!isRecord(item) || typeof item.operationId !== 'string') throw bad(indexPath, 'every operation needs an operationId');
    const state = item.state;
    if (state !== 'observed' && state !== 'unavailable' && state !== 'not-observed')
      throw bad(indexPath, `${item.operationId}: unknown state ${JSON.stringify(state)}`);
    const file = typeof item.file === 'string' ? item.file : undefined;
    operations.push({
      operationId: item.operationId,
      state,
      ...(file === undefined ? {} : { file }),
      ...(typeof item.reason === 'string' ? { reason: item.reason } : {}),
    });
    if (state === 'observed') {
      if (file === undefined || !/^operations\/[A-Za-z0-9._-]+\.json$/.test(file))
        throw bad(indexPath, `${item.operationId}: observed operations need a file under ${OPERATIONS_DIR}/`);
      entries.set(item.operationId, parseEntry(join(root, file), readJson(join(root, file)), item.operationId));
    }
  }
  const environment = raw.environment === 'production' ? 'production' : 'sandbox';
  const index: BaselineIndex = {
    format: BASELINE_FORMAT,
    generator: String(raw.generator ?? ''),
    target: String(raw.target ?? ''),
    environment,
    operations,
  };
  return { dir: root, index, entries };
}

/** Catalog order, so index.json lists operations the way the README's coverage table does. */
export function catalogOrder(a: { operationId: string }, b: { operationId: string }): number {
  const ia = OPERATIONS.findIndex((op) => op.id === a.operationId);
  const ib = OPERATIONS.findIndex((op) => op.id === b.operationId);
  return (ia === -1 ? Number.MAX_SAFE_INTEGER : ia) - (ib === -1 ? Number.MAX_SAFE_INTEGER : ib);
}
