// The shared target options: commander parses them, configFromOptions layers them over env and file, and help names the env vars.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessErrorOf } from '../api/fixtures/harness-error-of.ts';
import { addTargetOptions, configFromOptions, parseTimeScaleFlag, PASSWORD_FLAG_WARNING, type TargetOptions } from './target-options.ts';

const cwd = mkdtempSync(join(tmpdir(), 'gh-target-options-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function parse(args: string[]): TargetOptions {
  const cmd = addTargetOptions(new Command('probe')).exitOverride();
  cmd.parse(args, { from: 'user' });
  return cmd.opts<TargetOptions>();
}

describe('addTargetOptions / configFromOptions', () => {
  it('flags override env', () => {
    const opts = parse([
      '--target',
      'http://127.0.0.1:9/',
      '--user',
      'u1',
      '--password',
      'p1',
      '--target-env',
      'production',
      '--time-scale',
      '0.5',
    ]);
    const config = configFromOptions(opts, { cwd, env: { GATEWAY_USER: 'env-user', GATEWAY_TIME_SCALE: '3' } });
    expect(config).toMatchObject({ baseUrl: 'http://127.0.0.1:9/', user: 'u1', password: 'p1', environment: 'production', timeScale: 0.5 });
  });

  it('env fills what flags leave out', () => {
    const config = configFromOptions(parse([]), { cwd, env: { GATEWAY_BASE_URL: 'https://gw.example', GATEWAY_PASSWORD: 'env-pw' } });
    expect(config).toMatchObject({ baseUrl: 'https://gw.example', user: 'user', password: 'env-pw', timeScale: 1 });
  });

  it.each(['x', '0', '-1', '1001', ''])('--time-scale %j: the one time-scale rule, GH_ERR_USAGE (exit 2)', (value) => {
    const error = harnessErrorOf(() => configFromOptions(parse(['--time-scale', value]), { cwd, env: {} }));
    expect(error.code).toBe('GH_ERR_USAGE');
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(
      value === '1001' ? /^--time-scale must be at most 1000 / : /^--time-scale must be a number greater than 0 /,
    );
  });

  it('parseTimeScaleFlag accepts positive factors up to the limit', () => {
    expect([parseTimeScaleFlag('0.01'), parseTimeScaleFlag('1'), parseTimeScaleFlag('1e-3'), parseTimeScaleFlag('1000')]).toEqual([
      0.01, 1, 0.001, 1000,
    ]);
  });

  it('GATEWAY_TIME_SCALE=0 is judged by the same rule (config layer wording)', () => {
    expect(harnessErrorOf(() => configFromOptions(parse([]), { cwd, env: { GATEWAY_TIME_SCALE: '0' } })).message).toBe(
      'config: timeScale (from GATEWAY_TIME_SCALE) must be a number greater than 0',
    );
  });

  it.each(['https://h/api/v2', 'http://127.0.0.1:8080/api', 'https://h/prefix/'])(
    '--target %s with a path is refused: paths are appended to it',
    (url) => {
      const error = harnessErrorOf(() => configFromOptions(parse(['--target', url]), { cwd, env: {} }));
      expect(error.code).toBe('GH_ERR_CONFIG');
      expect(error.message).toMatch(/^config: baseUrl \(from --target\) must be the base URL without a path/);
      expect(error.message).not.toContain(url);
    },
  );

  it('a base URL with a port or a trailing slash is fine', () => {
    for (const url of ['https://h:8443', 'http://127.0.0.1:9/'])
      expect(configFromOptions(parse(['--target', url]), { cwd, env: {} }).baseUrl).toBe(url);
  });

  it('help text names every option and its environment variable', () => {
    const help = addTargetOptions(new Command('probe')).helpInformation();
    for (const text of [
      '--target <url>',
      '--user <user>',
      '--password <password>',
      '--target-env <kind>',
      '--time-scale <factor>',
      '--config <path>',
    ]) {
      expect(help).toContain(text);
    }
    for (const env of ['GATEWAY_BASE_URL', 'GATEWAY_USER', 'GATEWAY_PASSWORD', 'GATEWAY_ENV', 'GATEWAY_TIME_SCALE']) {
      expect(help.replace(/\s+/g, ' ')).toContain(env);
    }
  });
});

describe('--password on the command line', () => {
  it('warns that process lists show it; a password from the environment gets no warning', () => {
    const warnings: string[] = [];
    configFromOptions({ password: 'p1' }, { cwd: process.cwd(), env: {}, warn: (line) => void warnings.push(line) });
    configFromOptions({}, { cwd: process.cwd(), env: { GATEWAY_PASSWORD: 'p2' }, warn: (line) => void warnings.push(line) });
    expect(warnings).toEqual([PASSWORD_FLAG_WARNING]);
    expect(PASSWORD_FLAG_WARNING).toMatch(/--password is visible to other users in process lists .*prefer GATEWAY_PASSWORD/);
  });
});
