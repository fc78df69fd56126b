// The bundle's sync-HTTP detection: a script that may block on k6/http gets the helper thread during init, a script of
// asyncRequest only does not pay a thread per worker for it (bundle.ts mayUseSyncHttp).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleScript, mayUseSyncHttp } from './bundle.ts';

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
    expect(await detects('default-get', `import http from 'k6/http';\nexport default function () { http.get('http://127.0.0.1:1/'); }\n`)).toBe(true);
    expect(await detects('default-batch', `import http from 'k6/http';\nexport default function () { http.batch([]); }\n`)).toBe(true);
  });

  it('is true when the default import is passed on or read by a computed name', async () => {
    expect(await detects('passed-on', `import http from 'k6/http';\nfunction use(h) { return h; }\nexport default function () { use(http); }\n`)).toBe(true);
    expect(await detects('computed', `import http from 'k6/http';\nexport default function () { http['get']('http://127.0.0.1:1/'); }\n`)).toBe(true);
  });

  it('is true for a call of a named blocking import, false for a named asyncRequest', async () => {
    expect(await detects('named-post', `import { post } from 'k6/http';\nexport default function () { post('http://127.0.0.1:1/', 'x'); }\n`)).toBe(true);
    expect(await detects('named-async', `import { asyncRequest } from 'k6/http';\nexport default async function () { await asyncRequest('GET', 'http://127.0.0.1:1/'); }\n`)).toBe(false);
  });
});
