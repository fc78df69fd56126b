// Config loading: precedence of the layers (each overrides the one below), and one-line GH_ERR_CONFIG errors that
// name field, problem and source but never a credential.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessErrorOf } from '../api/fixtures/harness-error-of.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { CONFIG_DEFAULTS, EMBEDDED_SANDBOX_TIME_SCALE, giftcardCursorOf } from '../api/target-config.ts';
import { jsonErrorOffset, loadConfig, type ConfigFlags } from './load-config.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A directory holding a gateway-harness.config.json with this content (a string is written verbatim). */
function withFile(content: unknown): string {
  const sub = mkdtempSync(join(dir, 'case-'));
  writeFileSync(join(sub, 'gateway-harness.config.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return sub;
}

const emptyDir = mkdtempSync(join(dir, 'empty-'));

function load(opts: { cwd?: string; env?: Record<string, string>; flags?: ConfigFlags }) {
  return loadConfig({ cwd: opts.cwd ?? emptyDir, env: opts.env ?? {}, flags: opts.flags ?? {} });
}

describe('defaults', () => {
  it('with nothing given: embedded sandbox, default credentials, sandbox env, fast time scale', () => {
    const config = load({});
    expect(config.baseUrl).toBeUndefined();
    expect(config.user).toBe('user');
    expect(config.password).toBe('pass');
    expect(config.environment).toBe('sandbox');
    expect(config.timeScale).toBe(EMBEDDED_SANDBOX_TIME_SCALE);
    expect(config.timeouts).toEqual({ connectMs: 10_000, responseMs: 30_000 });
    expect(config.poll).toEqual({ intervalMs: 5_000, deadlineMs: 180_000, notFoundCodes: ['027'] });
    expect(config.writePaths).toEqual({});
    expect(config.fieldMapping).toEqual(DEFAULT_FIELD_MAPPING);
    expect(config.sandbox).toEqual({ seed: 1 });
  });

  it('an upper-case scheme (HTTP://, Https://) is normalised for every consumer (issue #32 finding 13)', () => {
    expect(load({ flags: { target: 'HTTP://127.0.0.1:8080' } }).baseUrl).toBe('http://127.0.0.1:8080');
    expect(load({ env: { GATEWAY_BASE_URL: 'Https://gw.example/' } }).baseUrl).toBe('https://gw.example/');
  });

  it('a real target defaults to time scale 1', () => {
    expect(load({ flags: { target: 'https://gw.example' } }).timeScale).toBe(CONFIG_DEFAULTS.timeScale);
  });
});

describe('wallet terms (how the balance reads as available funds: ledger/funds.ts)', () => {
  it('absent by default (auto); set from the config file or GATEWAY_WALLET_TERMS, the env over the file', () => {
    expect(load({}).walletTerms).toBeUndefined();
    expect(load({ cwd: withFile({ walletTerms: 'credit' }) }).walletTerms).toBe('credit');
    expect(load({ cwd: withFile({ walletTerms: 'credit' }), env: { GATEWAY_WALLET_TERMS: 'Prepaid' } }).walletTerms).toBe('prepaid');
  });
});

describe('gift card paging (paging.giftcardCursor: api/giftcard-paging.ts)', () => {
  it("absent by default (the spec's definition); each value from the config file", () => {
    expect(giftcardCursorOf(load({}))).toBe('spec');
    for (const giftcardCursor of ['spec', 'next-start', 'last-of-page', 'page-count'])
      expect(load({ cwd: withFile({ paging: { giftcardCursor } }) }).paging).toEqual({ giftcardCursor });
  });
});

describe('precedence: defaults < file < env < flags', () => {
  const file = withFile({
    baseUrl: 'http://file.example',
    user: 'file-user',
    password: 'file-pw',
    environment: 'production',
    timeScale: 0.5,
  });
  const env = {
    GATEWAY_BASE_URL: 'http://env.example',
    GATEWAY_USER: 'env-user',
    GATEWAY_PASSWORD: 'env-pw',
    GATEWAY_ENV: 'sandbox',
    GATEWAY_TIME_SCALE: '0.25',
  };
  const flags: ConfigFlags = { target: 'http://flag.example', user: 'flag-user', password: 'flag-pw', env: 'production', timeScale: '2' };

  it('file overrides defaults', () => {
    expect(load({ cwd: file })).toMatchObject({
      baseUrl: 'http://file.example',
      user: 'file-user',
      password: 'file-pw',
      environment: 'production',
      timeScale: 0.5,
    });
  });
  it('env overrides the file', () => {
    expect(load({ cwd: file, env })).toMatchObject({
      baseUrl: 'http://env.example',
      user: 'env-user',
      password: 'env-pw',
      environment: 'sandbox',
      timeScale: 0.25,
    });
  });
  it('flags override env', () => {
    expect(load({ cwd: file, env, flags })).toMatchObject({
      baseUrl: 'http://flag.example',
      user: 'flag-user',
      password: 'flag-pw',
      environment: 'production',
      timeScale: 2,
    });
  });
  it('each key is taken from the highest layer that sets it', () => {
    const config = load({ cwd: file, env: { GATEWAY_USER: 'env-user' }, flags: { timeScale: '3' } });
    expect(config).toMatchObject({ baseUrl: 'http://file.example', user: 'env-user', password: 'file-pw', timeScale: 3 });
  });
  it('GATEWAY_BASE_URL present but empty is a usage error, never the embedded sandbox (#31 item 5)', () => {
    for (const value of ['', '  ']) expect(() => load({ env: { GATEWAY_BASE_URL: value } })).toThrow(/GATEWAY_BASE_URL is set but empty/);
    expect(() => load({ env: { GATEWAY_BASE_URL: '' } })).toThrow(expect.objectContaining({ code: 'GH_ERR_USAGE', exitCode: 2 }) as Error);
  });
  it('empty env variables count as unset', () => {
    expect(load({ cwd: file, env: { GATEWAY_USER: '', GATEWAY_TIME_SCALE: '' } })).toMatchObject({ user: 'file-user', timeScale: 0.5 });
  });
  it('--config names a file elsewhere (relative to cwd)', () => {
    const other = withFile({ user: 'other-file-user' });
    expect(load({ cwd: other, flags: { config: join(file, 'gateway-harness.config.json') } }).user).toBe('file-user');
  });
});

describe('file contents', () => {
  it('nested settings, write paths and field mapping overrides', () => {
    const cwd = withFile({
      timeouts: { responseMs: 12_000 },
      poll: { intervalMs: 1_000, maxAttempts: 7 },
      writePaths: { 'v2.transaction.pin': '/api/v2/pin/purchase' },
      fieldMapping: { v2Sku: { category: 'categoryName', minFaceValue: 'limits.min' } },
      sandbox: { seed: 42, profile: 'strict' },
    });
    const config = load({ cwd });
    expect(config.timeouts).toEqual({ connectMs: 10_000, responseMs: 12_000 });
    expect(config.poll).toEqual({ intervalMs: 1_000, deadlineMs: 180_000, maxAttempts: 7, notFoundCodes: ['027'] });
    expect(config.writePaths).toEqual({ 'v2.transaction.pin': '/api/v2/pin/purchase' });
    expect(config.fieldMapping.v2Sku.category).toBe('categoryName');
    expect(config.fieldMapping.v2Sku.minFaceValue).toBe('limits.min');
    expect(config.fieldMapping.v2Sku.skuId).toBe('skuId');
    expect(config.fieldMapping.v1Sku).toEqual(DEFAULT_FIELD_MAPPING.v1Sku);
    expect(config.sandbox).toEqual({ seed: 42, profile: 'strict' });
  });
});

describe('errors: one line, GH_ERR_CONFIG, exit 2, naming field and source', () => {
  const rows: Array<[string, { cwd?: string; env?: Record<string, string>; flags?: ConfigFlags }, string | RegExp]> = [
    [
      'bad env time scale',
      { env: { GATEWAY_TIME_SCALE: 'fast' } },
      'config: timeScale (from GATEWAY_TIME_SCALE) must be a number greater than 0',
    ],
    ['zero flag time scale', { flags: { timeScale: '0' } }, 'config: timeScale (from --time-scale) must be a number greater than 0'],
    [
      'negative file time scale',
      { cwd: withFile({ timeScale: -1 }) },
      'config: timeScale (from config file gateway-harness.config.json) must be a number greater than 0',
    ],
    ['bad env kind', { env: { GATEWAY_ENV: 'staging' } }, 'config: environment (from GATEWAY_ENV) must be "sandbox" or "production"'],
    [
      'bad wallet terms',
      { env: { GATEWAY_WALLET_TERMS: 'postpaid' } },
      'config: walletTerms (from GATEWAY_WALLET_TERMS) must be "auto", "prepaid" or "credit"',
    ],
    ['bad target', { flags: { target: 'ftp://x' } }, /^config: baseUrl \(from --target\) must be an http:\/\/ or https:\/\/ URL/],
    [
      'target with credentials',
      { env: { GATEWAY_BASE_URL: 'https://u:p@gw.example' } },
      /^config: baseUrl \(from GATEWAY_BASE_URL\) must be .* no credentials/,
    ],
    [
      'unknown keys',
      { cwd: withFile({ user: 'u', tmeScale: 1, extra: true }) },
      'config: config file gateway-harness.config.json has unknown keys "tmeScale", "extra"',
    ],
    [
      'unknown nested key',
      { cwd: withFile({ timeouts: { responseMS: 5 } }) },
      'config: timeouts (from config file gateway-harness.config.json) has unknown key "responseMS"',
    ],
    [
      'bad nested timeout',
      { cwd: withFile({ timeouts: { connectMs: 'ten' } }) },
      'config: timeouts.connectMs (from config file gateway-harness.config.json) must be a number of milliseconds greater than 0',
    ],
    [
      'write path of a documented op',
      { cwd: withFile({ writePaths: { 'v2.transaction.topup': '/x' } }) },
      /^config: writePaths\.v2\.transaction\.topup \(from config file .*\) names an operation whose path the spec shows/,
    ],
    [
      'a __proto__ write path (issue #32)',
      { cwd: withFile('{"writePaths": {"__proto__": "/x"}}') },
      /^config: writePaths\.__proto__ .* is not an operation id/,
    ],
    [
      'write path of an unknown op',
      { cwd: withFile({ writePaths: { 'v2.transaction.nope': '/x' } }) },
      /^config: writePaths\.v2\.transaction\.nope .* is not an operation id/,
    ],
    [
      'relative write path',
      { cwd: withFile({ writePaths: { 'v1.transaction.pin': 'pin' } }) },
      /^config: writePaths\.v1\.transaction\.pin .* must be a path starting with '\/'/,
    ],
    [
      'bad cursor meaning',
      { cwd: withFile({ paging: { giftcardCursor: 'offset' } }) },
      'config: paging.giftcardCursor (from config file gateway-harness.config.json) must be one of "spec", "next-start", "last-of-page", "page-count"',
    ],
    [
      'unknown field mapping field',
      { cwd: withFile({ fieldMapping: { v2Sku: { sku: 'x' } } }) },
      'config: fieldMapping.v2Sku (from config file gateway-harness.config.json) has unknown key "sku"',
    ],
    [
      'production without a target',
      { env: { GATEWAY_ENV: 'production' } },
      'config: environment (from GATEWAY_ENV) is production but no baseUrl (--target) is given: the embedded sandbox is not production',
    ],
    ['production flag without a target', { flags: { env: 'production' } }, /^config: environment \(from --target-env\) is production/],
    [
      'invalid JSON',
      { cwd: withFile('{\n  "user": "u",\n  "timeScale": ,\n}') },
      'config: config file gateway-harness.config.json is not valid JSON (line 3, column 16)',
    ],
    ['JSON that is not an object', { cwd: withFile('[1,2]') }, 'config: config file gateway-harness.config.json must hold a JSON object'],
    ['missing --config file', { flags: { config: 'nope.json' } }, 'config: cannot read config file nope.json (ENOENT)'],
    ['empty password flag', { flags: { password: '' } }, 'config: password (from --password) must not be empty (password)'],
    [
      'interval above deadline',
      { cwd: withFile({ poll: { intervalMs: 10_000, deadlineMs: 5_000 } }) },
      /^config: poll\.intervalMs \(from config file .*\) must not exceed poll\.deadlineMs/,
    ],
  ];

  it.each(rows)('%s', (_name, opts, expected) => {
    const error = harnessErrorOf(() => load(opts));
    expect(error.code).toBe('GH_ERR_CONFIG');
    expect(error.exitCode).toBe(2);
    expect(error.message).not.toContain('\n');
    if (typeof expected === 'string') expect(error.message).toBe(expected);
    else expect(error.message).toMatch(expected);
  });

  it('counts further problems on the same line', () => {
    const error = harnessErrorOf(() => load({ cwd: withFile({ timeScale: 0, environment: 'x' }) }));
    expect(error.message).toMatch(/\(and 1 more problem\)$/);
  });
});

describe('credentials never appear in messages', () => {
  const MARKER = 'MARKER-c0ffee-5ecret';
  const cases: Array<[string, () => unknown]> = [
    ['bad time scale next to a password in the file', () => load({ cwd: withFile({ password: MARKER, user: MARKER, timeScale: 'x' }) })],
    ['invalid JSON right after the password', () => load({ cwd: withFile(`{"password": "${MARKER}" "user": "u"}`) })],
    ['invalid JSON with an unquoted password', () => load({ cwd: withFile(`{"password": ${MARKER}}`) })],
    ['password of a wrong type in the file', () => load({ cwd: withFile({ password: [MARKER] }) })],
    ['bad env with password in env', () => load({ env: { GATEWAY_PASSWORD: MARKER, GATEWAY_USER: MARKER, GATEWAY_TIME_SCALE: MARKER } })],
    ['production without target, password in flags', () => load({ flags: { password: MARKER, user: MARKER, env: 'production' } })],
    ['target URL with the password as userinfo', () => load({ flags: { target: `https://agent:${MARKER}@gw.example` } })],
  ];
  it.each(cases)('%s', (_name, fn) => {
    const error = harnessErrorOf(fn);
    expect(error.message).not.toContain(MARKER);
    expect(String(error.stack)).not.toContain(MARKER);
  });
});

describe('jsonErrorOffset', () => {
  const valid = ['{}', '[]', '{"a":[1,-2.5e3,true,false,null,"x\\u00e9\\n"]}', ' {"a" : {"b":[]}} ', '"s"', '0'];
  const invalid: Array<[string, number]> = [
    ['{"a":1,}', 7],
    ['{"a": secret}', 6],
    ['{"a":1 "b":2}', 7],
    ['[1,2', 4],
    ['{"a":"\\x"}', 6],
    ['{"a":01}', 6],
    ['{} x', 3],
    ['', 0],
  ];
  it.each(valid)('finds no error in valid JSON %j', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(jsonErrorOffset(text)).toBeUndefined();
  });
  it.each(invalid)('locates the error in %j at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorOffset(text)).toBe(offset);
  });
});
