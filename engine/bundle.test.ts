// The bundle's sync-HTTP detection: a script that may block on k6/http gets the helper thread during init, a script of
// asyncRequest only does not pay a thread per worker for it (bundle.ts mayUseSyncHttp); a require of a name computed at
// run time, answered by the VU when it runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleScript, compileFactory, mayUseSyncHttp, unsupportedMembers, type VUScope } from './bundle.ts';
import { requiredModule } from './k6/modules.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-engine-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function detects(name: string, script: string): Promise<boolean> {
  const path = join(dir, `${name}.js`);
  writeFileSync(path, script);
  return mayUseSyncHttp(await bundleScript(path));
}

describe('mayUseSyncHttp', () => {
  it('is false for a script of asyncRequest only, whatever other .get( calls it makes', async () => {
    const script = `import http from 'k6/http';\nconst m = new Map();\nexport const options = { vus: 1 };\nexport default async function () { m.get('x'); await http.asyncRequest('GET', 'http://127.0.0.1:1/'); }\n`;
    expect(await detects('async-only', script)).toBe(false);
  });

  it('is true for a blocking member of the default import', async () => {
    expect(
      await detects('default-get', `import http from 'k6/http';\nexport default function () { http.get('http://127.0.0.1:1/'); }\n`),
    ).toBe(true);
    expect(await detects('default-batch', `import http from 'k6/http';\nexport default function () { http.batch([]); }\n`)).toBe(true);
  });

  it('is true when the default import is passed on or read by a computed name', async () => {
    expect(
      await detects('passed-on', `import http from 'k6/http';\nfunction use(h) { return h; }\nexport default function () { use(http); }\n`),
    ).toBe(true);
    expect(
      await detects('computed', `import http from 'k6/http';\nexport default function () { http['get']('http://127.0.0.1:1/'); }\n`),
    ).toBe(true);
  });

  it('is true for a call of a named blocking import, false for a named asyncRequest', async () => {
    expect(
      await detects('named-post', `import { post } from 'k6/http';\nexport default function () { post('http://127.0.0.1:1/', 'x'); }\n`),
    ).toBe(true);
    expect(
      await detects(
        'named-async',
        `import { asyncRequest } from 'k6/http';\nexport default async function () { await asyncRequest('GET', 'http://127.0.0.1:1/'); }\n`,
      ),
    ).toBe(false);
  });
});

// The harness's own bundles are CommonJS (esbuild.config.mjs): k6 v0.48 runs them without its Babel pass. esbuild
// bundles their require("k6/http") in a lazy-init form whose shims must not read as uses of the module.
describe('mayUseSyncHttp and unsupportedMembers on CommonJS scripts', () => {
  it('asyncRequest only (through the default export, as esbuild writes a bundled ES import): false', async () => {
    const script = `var import_http = require('k6/http');\nmodule.exports.options = { vus: 1 };\nmodule.exports.default = async function () { await import_http.default.asyncRequest('GET', 'http://127.0.0.1:1/'); };\n`;
    expect(await detects('cjs-async', script)).toBe(false);
  });

  it('a blocking call through the default export or a named export, or the module passed on: true', async () => {
    expect(
      await detects(
        'cjs-default-get',
        `var h = require('k6/http');\nmodule.exports.default = function () { h.default.get('http://127.0.0.1:1/'); };\n`,
      ),
    ).toBe(true);
    expect(
      await detects(
        'cjs-named-post',
        `var h = require('k6/http');\nmodule.exports.default = function () { h.post('http://127.0.0.1:1/', 'x'); };\n`,
      ),
    ).toBe(true);
    expect(
      await detects(
        'cjs-passed',
        `var h = require('k6/http');\nfunction use(x) { return x; }\nmodule.exports.default = function () { use(h); };\n`,
      ),
    ).toBe(true);
  });

  it('a member the engine does not implement is named, through the default export or the module', async () => {
    const path = join(dir, 'cjs-unsupported.js');
    writeFileSync(
      path,
      `var h = require('k6/http');\nmodule.exports.default = function () { h.default.cookieJar(); h.file(); h.default.asyncRequest('GET', 'x'); };\n`,
    );
    await expect(bundleScript(path)).rejects.toThrow(/k6\/http\.cookieJar[\s\S]*k6\/http\.file|k6\/http\.file[\s\S]*k6\/http\.cookieJar/);
    const ok = join(dir, 'cjs-supported.js');
    writeFileSync(ok, `var h = require('k6/http');\nmodule.exports.default = function () { h.default.asyncRequest('GET', 'x'); };\n`);
    expect(unsupportedMembers(await bundleScript(ok))).toEqual([]);
  });
});

// k6 resolves require(name) at run time, so a script may name a k6 module by a computed string (`require('k6/' + x)`):
// the engine answers it as k6 does, and, not knowing which module it is, starts the sync-HTTP helper for it.
describe('a require of a module named at run time', () => {
  const script = `var name = ['k6', 'http'].join('/');\nvar h = require(name);\nmodule.exports.default = function () { h.get('http://127.0.0.1:1/'); };\n`;

  it('may use k6/http synchronously: the helper starts', async () => {
    expect(await detects('computed-require', script)).toBe(true);
  });

  it("is answered by the VU's require, as k6 answers it", async () => {
    const path = join(dir, 'computed-require-run.js');
    writeFileSync(path, `var name = ['k6', 'http'].join('/');\nmodule.exports.loaded = require(name);\n`);
    const asked: string[] = [];
    const scope: VUScope = {
      id: 1,
      iter: 0,
      env: {},
      open: () => '',
      module: () => ({}),
      require: (name) => (asked.push(name), { module: name }),
    };
    const exports = compileFactory(await bundleScript(path), path)(scope);
    expect(asked).toEqual(['k6/http']);
    expect(exports.loaded).toEqual({ module: 'k6/http' });
  });
});

describe("the VU's require of a computed name (engine/k6/modules.ts requiredModule)", () => {
  const modules = (name: string): unknown => {
    if (name !== 'k6/http') throw new Error(`module ${name} is not implemented by the node engine`);
    return { post: () => 'posted', default: {} };
  };

  it('gives the module; a member the engine does not implement says so, as an import of it would at load time', () => {
    const http = requiredModule(modules, 'k6/http') as Record<string, () => unknown>;
    expect(http.post?.()).toBe('posted');
    expect(() => http.cookieJar).toThrow(/^k6\/http\.cookieJar is not implemented by the node engine; run this script with k6/);
    expect(() => requiredModule(modules, 'k6/browser')).toThrow(/module k6\/browser is not implemented by the node engine/);
  });
});
