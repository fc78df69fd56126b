// Issue #32 finding 6: what a target sends (a non-JSON body's snippet, a responseCode) reaches stdout, stderr and every
// report file escaped (a visible `\x1b`), so it can neither clear a CI log and forge a green PASS nor write the clipboard.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { printable } from '../../api/printable.ts';
import { blankGatewayEnvEachTest, runCli } from '../fixtures/run-cli.ts';

blankGatewayEnvEachTest();
const dir = mkdtempSync(join(tmpdir(), 'gh-escapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FORGED = '\u001b[2J\u001b[H\u001b[32mPASS: conformance: all 390 cases passed\u001b]52;c;ZXZpbA==\u0007 \u0000 \u202e';
// eslint-disable-next-line no-control-regex -- raw control bytes are what must not be there
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

/** A target on 127.0.0.1 port 0 answering with `handler`, closed after `body` ran. */
async function withTarget<T>(handler: RequestListener, body: (url: string) => Promise<T>): Promise<T> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function expectEscaped(text: string): void {
  expect(text).not.toMatch(RAW);
  expect(text).toContain('\\x1b[2J');
}

describe('values from a target are shown escaped in every output', () => {
  it('printable shows control bytes and direction overrides, keeps text, tabs and line feeds', () => {
    expect(printable(`a\tb\nc ${FORGED}`)).toBe(
      'a\tb\nc \\x1b[2J\\x1b[H\\x1b[32mPASS: conformance: all 390 cases passed\\x1b]52;c;ZXZpbA==\\x07 \\x00 \\u202e',
    );
    expect(printable('\u009b\u200f\u2066é€')).toBe('\\x9b\\u200f\\u2066é€');
  });

  it("conformance: a non-JSON body's snippet, on stdout, stderr, summary.md, summary.json, junit.xml and report.html", async () => {
    const reportDir = join(dir, 'conformance');
    const handler: RequestListener = (req, res) => {
      if (req.url?.includes('/account/balance') === true && req.headers.authorization !== undefined) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ responseCode: '000', responseMessage: 'ok', payLoad: { balance: 1 } }));
      } else res.writeHead(200, { 'content-type': 'text/plain' }).end(FORGED);
    };
    const result = await withTarget(handler, (url) =>
      runCli([
        'conformance',
        '--target',
        url,
        '--api',
        'v2',
        '--no-gen',
        '--grep',
        '^AUTH-NONE-v2\\.catalog\\.countries',
        '--report-dir',
        reportDir,
      ]),
    );
    // Its catalog is no envelope either: the target is unusable (exit 2), said once, with the body's escaped snippet.
    expect(result.code).toBe(2);
    expectEscaped(result.output);
    for (const file of ['summary.md', 'summary.json', 'junit.xml', 'report.html']) {
      const text = readFileSync(join(reportDir, file), 'utf8');
      expect(text, file).not.toMatch(RAW);
    }
  });

  it('the preflight: a responseCode with control bytes, in the one GH_ERR_TARGET line', async () => {
    const handler: RequestListener = (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ responseCode: FORGED, responseMessage: 'no', payLoad: null }));
    };
    const result = await withTarget(handler, (url) => runCli(['conformance', '--target', url, '--report-dir', join(dir, 'preflight')]));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/GH_ERR_TARGET/);
    expectEscaped(result.stderr);
  });

  it('discover: field names and values a target sends are printed escaped', async () => {
    // Every answer an envelope whose records are keyed and valued by a forged escape sequence.
    const handler: RequestListener = (req, res) => {
      const payLoad =
        req.url?.includes('/account/balance') === true ? -10 : [{ [FORGED]: FORGED, skuId: 193, [`x${FORGED}`]: { [FORGED]: 1 } }];
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ responseCode: '000', responseMessage: null, payLoad }));
    };
    const result = await withTarget(handler, (url) => runCli(['discover', '--target', url, '--max-probes', '5']));
    expect(result.stdout.length).toBeGreaterThan(0);
    expect(result.output).not.toMatch(RAW);
  }, 120_000);
});
