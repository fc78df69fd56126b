// Tests of `gateway-harness openapi`: writes the document to a file or to stdout (exit 0), with the server and the
// write paths of the config; the document itself is tested in openapi/build-document.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../api/operations.ts';
import { blankGatewayEnvEachTest, runCli as run } from '../fixtures/run-cli.ts';
import { tempDirsRemovedAfterAll } from '../fixtures/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterAll('gh-openapi-cli-');

blankGatewayEnvEachTest();

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string }>>;
  servers: { variables: { base_url: { default: string } } }[];
};
const operationIds = (doc: Doc): string[] => Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));

describe('gateway-harness openapi', () => {
  it('--server with user info: the document carries none, and stderr says it was left out (#23)', async () => {
    const { code, stdout, stderr } = await run(['openapi', '--server', 'http://agent:s3cret-pw@127.0.0.1:8080/gw']);
    expect(code).toBe(0);
    expect(stdout).not.toContain('s3cret-pw');
    expect(stdout).not.toContain('agent:');
    expect((JSON.parse(stdout) as Doc).servers[0]?.variables.base_url.default).toBe('http://127.0.0.1:8080/gw');
    expect(stderr).toMatch(/openapi: the server URL carried user info \(user:password@\): left out of the document/);
  });

  it('writes the document to --out-file (exit 0) and says where', async () => {
    const file = join(tempDir(), 'nested', 'gateway.openapi.json');
    const { code, stderr } = await run(['openapi', '--out-file', file, '--server', 'http://127.0.0.1:8080']);
    expect(code).toBe(0);
    const paths = new Set(OPERATIONS.map((op) => op.path)).size;
    expect(stderr).toMatch(new RegExp(`openapi: wrote .*gateway\\.openapi\\.json \\(${paths} paths, OpenAPI 3\\.1\\.0\\)`));
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Doc;
    expect(operationIds(doc).sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
    expect(doc.servers[0]?.variables.base_url.default).toBe('http://127.0.0.1:8080');
  });

  it("prints the document on stdout without --out, with the config file's write paths", async () => {
    const config = join(tempDir(), 'gateway-harness.config.json');
    writeFileSync(config, JSON.stringify({ writePaths: { 'v1.transaction.pin': '/api/v1/pin/purchase' } }));
    const { code, stdout } = await run(['openapi', '--config', config]);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/v1/pin/purchase']?.post?.operationId).toBe('v1.transaction.pin');
  });
});
