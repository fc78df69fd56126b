// Loads the target configuration from its layers: defaults < gateway-harness.config.json < GATEWAY_* env < CLI flags.
// Every problem is one GH_ERR_CONFIG line naming the field, the problem and the layer it came from, never the value.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { HarnessError } from '../api/errors.ts';
import type { TargetConfig } from '../api/target-config.ts';
import { parseTargetConfigInput, resolveTargetConfig, type ConfigIssue, type TargetConfigInput } from './target-config-schema.ts';

export const CONFIG_FILE_NAME = 'gateway-harness.config.json';

/** Environment variables of the interface contract (DESIGN.md), mapped to config keys. */
export const ENV_VARS = Object.freeze({
  GATEWAY_BASE_URL: 'baseUrl',
  GATEWAY_USER: 'user',
  GATEWAY_PASSWORD: 'password',
  GATEWAY_ENV: 'environment',
  GATEWAY_TIME_SCALE: 'timeScale',
  GATEWAY_WALLET_TERMS: 'walletTerms',
} as const);

/** CLI flags as commander hands them over (`--time-scale` becomes timeScale). */
export interface ConfigFlags {
  readonly target?: string;
  readonly user?: string;
  readonly password?: string;
  readonly env?: string;
  readonly timeScale?: string | number;
  readonly config?: string;
}

const FLAG_NAMES = Object.freeze({
  baseUrl: '--target',
  user: '--user',
  password: '--password',
  environment: '--target-env',
  timeScale: '--time-scale',
} as const);

export interface LoadConfigOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly flags?: ConfigFlags;
  /**
   * A layer below the config file, for what a command knows besides the user's settings (reconcile: the target and
   * environment its ledger names); `label` says where the values came from in errors.
   */
  readonly base?: { readonly label: string; readonly values: Record<string, unknown> };
  /** Injected for tests; defaults to a UTF-8 file read. */
  readonly readFile?: (path: string) => string;
}

/** One configuration layer: its values and, per dotted key, a printable name of where the value came from. */
interface Layer {
  readonly label: string;
  readonly values: Record<string, unknown>;
}

function configError(message: string): HarnessError {
  return new HarnessError('GH_ERR_CONFIG', `config: ${message}`);
}

/** A numeric string becomes a number; anything else stays as given so the schema reports it as "must be a number". */
function numeric(value: string | number): string | number {
  if (typeof value === 'number') return value;
  const text = value.trim();
  return /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : value;
}

/** Line and column of a character offset, so a JSON error can be located without quoting the file (it may hold a password). */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/**
 * The recursive-descent scan behind jsonErrorOffset: `at` walks the text and a syntax error throws the offset it
 * stands at (a number, so the catch tells it from a stack overflow).
 */
class JsonScan {
  at = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** The whole text is one JSON value, with only whitespace after it. */
  document(): void {
    this.value(0);
    this.ws();
    if (this.at < this.text.length) this.fail();
  }

  private fail(): never {
    throw this.at;
  }

  private char(): string {
    return this.text.charAt(this.at);
  }

  private ws(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.char())) this.at++;
  }

  private value(depth: number): void {
    if (depth > 512) this.fail();
    this.ws();
    const c = this.char();
    if (c === '{') this.object(depth);
    else if (c === '[') this.array(depth);
    else if (c === '"') this.string();
    else if (c === 't') this.literal('true');
    else if (c === 'f') this.literal('false');
    else if (c === 'n') this.literal('null');
    else this.number();
  }

  private object(depth: number): void {
    this.at++;
    this.ws();
    if (this.char() === '}') {
      this.at++;
      return;
    }
    while (true) {
      this.ws();
      if (this.char() !== '"') this.fail();
      this.string();
      this.ws();
      if (this.char() !== ':') this.fail();
      this.at++;
      this.value(depth + 1);
      if (this.listEnds('}')) return;
    }
  }

  private array(depth: number): void {
    this.at++;
    this.ws();
    if (this.char() === ']') {
      this.at++;
      return;
    }
    while (true) {
      this.value(depth + 1);
      if (this.listEnds(']')) return;
    }
  }

  /** After a member or an element: a comma (another follows) or the closing bracket; anything else is the error. */
  private listEnds(close: string): boolean {
    this.ws();
    if (this.char() === ',') this.at++;
    else if (this.char() === close) {
      this.at++;
      return true;
    } else this.fail();
    return false;
  }

  private literal(word: string): void {
    if (this.text.startsWith(word, this.at)) this.at += word.length;
    else this.fail();
  }

  private string(): void {
    this.at++;
    while (this.at < this.text.length) {
      const c = this.char();
      if (c === '"') {
        this.at++;
        return;
      }
      if (c === '\\') this.escape();
      else if (c < ' ') this.fail();
      else this.at++;
    }
    this.fail();
  }

  private escape(): void {
    const e = this.text.charAt(this.at + 1);
    if (e === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) this.fail();
      this.at += 6;
    } else if ('"\\/bfnrt'.includes(e) && e !== '') this.at += 2;
    else this.fail();
  }

  private number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.at));
    if (m === null || m[0] === '' || m[0] === '-') this.fail();
    else this.at += m[0].length;
  }
}

/**
 * Offset of the first JSON syntax error (a small recursive-descent scan; undefined if none is found). Only used
 * after JSON.parse has failed, to point at the spot without echoing any of the file.
 */
export function jsonErrorOffset(text: string): number | undefined {
  try {
    new JsonScan(text).document();
    return undefined;
  } catch (offset) {
    return typeof offset === 'number' ? offset : undefined;
  }
}

function fileLayer(options: LoadConfigOptions): Layer | undefined {
  const explicit = options.flags?.config;
  const path =
    explicit === undefined ? resolve(options.cwd, CONFIG_FILE_NAME) : isAbsolute(explicit) ? explicit : resolve(options.cwd, explicit);
  const label = `config file ${explicit ?? CONFIG_FILE_NAME}`;
  const read = options.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // The default file is optional; a file the user named must exist.
    if (explicit === undefined && code === 'ENOENT') return undefined;
    throw configError(`cannot read ${label} (${typeof code === 'string' ? code : 'read error'})`);
  }
  text = text.replace(/^\uFEFF/, '');
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch {
    // V8's message quotes the file's text (which may hold a password): locate the error ourselves instead.
    const offset = jsonErrorOffset(text);
    throw configError(`${label} is not valid JSON${offset === undefined ? '' : ` (${lineColumn(text, offset)})`}`);
  }
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw configError(`${label} must hold a JSON object`);
  }
  return { label, values: values as Record<string, unknown> };
}

/** GATEWAY_BASE_URL set to nothing: a usage error (exit 2), never the embedded sandbox. */
export const EMPTY_BASE_URL = "GATEWAY_BASE_URL is set but empty: give the gateway's base URL, or unset it to test the embedded sandbox";

function envLayers(env: LoadConfigOptions['env']): Layer[] {
  const layers: Layer[] = [];
  for (const [name, key] of Object.entries(ENV_VARS)) {
    const raw = env[name];
    // Present but empty names no target, and silently testing the embedded sandbox instead would pass the wrong gateway.
    if (key === 'baseUrl' && raw !== undefined && raw.trim() === '') throw new HarnessError('GH_ERR_USAGE', EMPTY_BASE_URL);
    // Any other empty variable counts as unset, as shells and CI systems commonly export them empty.
    if (raw === undefined || raw === '') continue;
    const value = key === 'timeScale' ? numeric(raw) : key === 'environment' || key === 'walletTerms' ? raw.trim().toLowerCase() : raw;
    layers.push({ label: name, values: { [key]: value } });
  }
  return layers;
}

function flagLayers(flags: ConfigFlags | undefined): Layer[] {
  if (flags === undefined) return [];
  const values: Record<keyof typeof FLAG_NAMES, unknown> = {
    baseUrl: flags.target,
    user: flags.user,
    password: flags.password,
    environment: flags.env === undefined ? undefined : flags.env.trim().toLowerCase(),
    timeScale: flags.timeScale === undefined ? undefined : numeric(flags.timeScale),
  };
  return (Object.keys(values) as (keyof typeof FLAG_NAMES)[])
    .filter((key) => values[key] !== undefined)
    .map((key) => ({ label: FLAG_NAMES[key], values: { [key]: values[key] } }));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

/** Whether a layer sets the value at this path (or a parent of it). */
function layerSets(layer: Layer, path: readonly string[]): boolean {
  let current: unknown = layer.values;
  for (const segment of path) {
    if (!isPlainObject(current) || !(segment in current)) return false;
    current = current[segment];
  }
  return true;
}

function formatIssue(issue: ConfigIssue, label: string, more: number): string {
  const tail = more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : '';
  if (issue.path.length === 0) return `${label} ${issue.message}${tail}`;
  return `${issue.path.join('.')} (from ${label}) ${issue.message}${tail}`;
}

/** Resolves the configuration, or throws one GH_ERR_CONFIG line (exit 2). */
export function loadConfig(options: LoadConfigOptions): TargetConfig {
  const file = fileLayer(options);
  const layers: Layer[] = [
    ...(options.base === undefined ? [] : [options.base]),
    ...(file === undefined ? [] : [file]),
    ...envLayers(options.env),
    ...flagLayers(options.flags),
  ];

  // Each layer is validated alone first, so a problem is blamed on the layer that brought it.
  for (const layer of layers) {
    const parsed = parseTargetConfigInput(layer.values);
    if (!parsed.ok) {
      const [first] = parsed.issues;
      if (first !== undefined) throw configError(formatIssue(first, layer.label, parsed.issues.length - 1));
    }
  }

  const merged = layers.reduce<Record<string, unknown>>((acc, layer) => deepMerge(acc, layer.values), {});
  const parsed = parseTargetConfigInput(merged);
  if (!parsed.ok) {
    const [first] = parsed.issues;
    throw configError(first === undefined ? 'invalid configuration' : formatIssue(first, 'merged configuration', parsed.issues.length - 1));
  }
  const resolved = resolveTargetConfig(parsed.value as TargetConfigInput);
  if (!resolved.ok) {
    const [first] = resolved.issues;
    if (first === undefined) throw configError('invalid configuration');
    const source = [...layers].reverse().find((layer) => layerSets(layer, first.path));
    throw configError(formatIssue(first, source?.label ?? 'defaults', resolved.issues.length - 1));
  }
  return resolved.config;
}
