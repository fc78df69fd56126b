// The scan of a `load --script` user's own files for what loads past the harness client (esbuild.config.mjs
// buildK6Script): k6 modules that send, imported by name, and every require or import whose module is computed at run
// time (`require('k6/' + x)`), which cannot be verified and so counts as k6/http for the production guard.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildK6Script } from '../../esbuild.config.mjs';
import { rawNetworkNote, rawNetworkRefusal } from '../../ledger/guard.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gh-script-imports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The list the bundler returns for a script whose body is `source` (and its helper file, when given). */
async function scanned(name: string, source: string, helper?: string): Promise<string[]> {
  if (helper !== undefined) writeFileSync(join(dir, 'helper.ts'), helper);
  const entry = join(dir, name);
  writeFileSync(entry, `${source}\nexport default function () {}\n`);
  const built = await buildK6Script({ rootDir: ROOT, entry, outFile: join(dir, `${name}.bundle.js`) });
  return built.networkModules;
}

describe('a require or import whose module is computed at run time: unknown, it cannot be verified', () => {
  const CASES: readonly [string, string, string][] = [
    ['concatenation', "const x = 'http';\nexport const h = require('k6/' + x);", 'require("k6/" + x) in concat.js'],
    ['template literal', 'const x = `ht` + `tp`;\nexport const h = require(`k6/${x}`);', 'require(`k6/${x}`) in concat.js'],
    ['dynamic import', "const x = 'http';\nexport const h = import('k6/' + x);", 'import("k6/" + x) in concat.js'],
    ['a variable', "const name = ['k6', 'http'].join('/');\nexport const h = require(name);", 'require(name) in concat.js'],
    ['require passed on', "const load = require;\nexport const h = load('k6/http');", 'require used as a value in concat.js'],
    ['globalThis.require', "export const h = globalThis.require('k6/http');", 'globalThis.require("k6/http") in concat.js'],
  ];
  for (const [what, source, entry] of CASES) {
    it(`${what}: listed as \`${entry}\``, async () => {
      expect(await scanned('concat.js', source)).toEqual([entry]);
    });
  }

  it("in a file the script imports (TypeScript), named by its path from the script's directory", async () => {
    const helper = "export function load(x: string): unknown {\n  return require('k6/' + x);\n}\n";
    expect(await scanned('uses-helper.ts', "import { load } from './helper.ts';\nexport const h = load('http');", helper)).toEqual([
      'require("k6/" + x) in helper.ts',
    ]);
  });

  it('not: a literal require or import (the bundle lists those by name), typeof require, the words in a string', async () => {
    const source = [
      "import http from 'k6/http';",
      "const metrics = require('k6/metrics');",
      'const later = import(`k6/execution`);',
      "const kind = typeof require === 'function';",
      'const text = "require(\'k6/\' + x) and import(name)";',
      'export const all = [http, metrics, later, kind, text];',
    ].join('\n');
    expect(await scanned('literal.js', source)).toEqual(['k6/http']);
  });
});

describe('the production guard and the sandbox note for such a script', () => {
  const computed = ['require("k6/" + x) in flow.js'];

  it('against production: refused as if it were k6/http, naming the load', () => {
    expect(rawNetworkRefusal('flow', computed, 'production')).toBe(
      'script flow loads a module named at run time (require("k6/" + x) in flow.js), which cannot be verified, so it counts as k6/http: a request sent that way could charge unrecorded; against production a script sends through the harness client (ctx.client, read, submit) only',
    );
    expect(rawNetworkRefusal('flow', ['k6/ws', ...computed], 'production')).toMatch(
      /^script flow imports k6\/ws itself and loads a module named at run time \(require\("k6\/" \+ x\) in flow\.js\), which cannot be verified/,
    );
  });

  it('against a sandbox: runs, with the note', () => {
    expect(rawNetworkRefusal('flow', computed, 'sandbox')).toBeUndefined();
    expect(rawNetworkNote('flow', computed)).toMatch(
      /^script flow loads a module named at run time .*: requests sent that way have no money guard/,
    );
  });
});
