// The shared target options: commander parses them, configFromOptions layers them over env and file, and help names the env vars.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../api/errors.ts';
import { addTargetOptions, configFromOptions, type TargetOptions } from './target-options.ts';

const cwd = mkdtempSync(join(tmpdir(), 'gh-target-options-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function parse(args: string[]): TargetOptions {
  const cmd = addTargetOptions(new Command('probe')).exitOverride();
  cmd.parse(args, { from: 'user' });
  return cmd.opts<TargetOptions>();
}

describe('addTargetOptions / configFromOptions', () => {
  it('flags override env', () => {
    const opts = parse(['--target', 'http://127.0.0.1:9/', '--user', 'u1', '--password', 'p1', '--env', 'production', '--time-scale', '0.5']);
    const config = configFromOptions(opts, { cwd, env: { GATEWAY_USER: 'env-user', GATEWAY_TIME_SCALE: '3' } });
    expect(config).toMatchObject({ baseUrl: 'http://127.0.0.1:9/', user: 'u1', password: 'p1', environment: 'production', timeScale: 0.5 });
  });

  it('env fills what flags leave out', () => {
    const config = configFromOptions(parse([]), { cwd, env: { GATEWAY_BASE_URL: 'https://gw.example', GATEWAY_PASSWORD: 'env-pw' } });
    expect(config).toMatchObject({ baseUrl: 'https://gw.example', user: 'user', password: 'env-pw', timeScale: 1 });
  });

  it('a bad flag value is a one-line GH_ERR_CONFIG (exit 2)', () => {
    expect(() => configFromOptions(parse(['--time-scale', 'x']), { cwd, env: {} })).toThrow(HarnessError);
    try {
      configFromOptions(parse(['--time-scale', 'x']), { cwd, env: {} });
    } catch (error) {
      expect((error as HarnessError).message).toBe('config: timeScale (from --time-scale) must be a number greater than 0');
      expect((error as HarnessError).exitCode).toBe(2);
    }
  });

  it('help text names every option and its environment variable', () => {
    const help = addTargetOptions(new Command('probe')).helpInformation();
    for (const text of ['--target <url>', '--user <user>', '--password <password>', '--env <kind>', '--time-scale <factor>', '--config <path>']) {
      expect(help).toContain(text);
    }
    for (const env of ['GATEWAY_BASE_URL', 'GATEWAY_USER', 'GATEWAY_PASSWORD', 'GATEWAY_ENV', 'GATEWAY_TIME_SCALE']) {
      expect(help.replace(/\s+/g, ' ')).toContain(env);
    }
  });
});
