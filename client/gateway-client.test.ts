// The gateway client end to end against a local server: calls through the catalog, the timeout -> Unknown -> poll
// flow of the spec (852 then 000), write-path overrides, and polling that gives up or hits its deadline.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withBaseUrl, type ResolvedTargetConfig } from '../api/target-config.ts';
import { resolveTargetConfig, type TargetConfigInput } from '../config/target-config-schema.ts';
import { createGatewayClient, type GatewayClient } from './gateway-client.ts';
import { envelope, sendJson, startTestServer, type TestServer } from './test-server.ts';

const PASSWORD = 'secret-MARKER-91c2';
let server: TestServer;
/** Status answers per correlationId, consumed one per check; the last one repeats. */
const statusScript = new Map<string, string[]>();
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const url = req.url ?? '';
    if (req.headers.authorization !== `Basic ${Buffer.from(`agent:${PASSWORD}`).toString('base64')}`) {
      res.writeHead(401, { 'www-authenticate': 'Basic' });
      return res.end();
    }
    const status = /^\/api\/v[12]\/transaction\/status\/([^/?]+)$/.exec(url);
    if (status) {
      const id = decodeURIComponent(status[1] ?? '');
      const script = statusScript.get(id);
      if (script === undefined) return sendJson(res, 200, envelope('404', null, 'unknown correlationId'));
      const code = script.length > 1 ? (script.shift() as string) : (script[0] as string);
      if (code === 'reset') return req.socket.destroy();
      if (code === 'http503') return sendJson(res, 503, {});
      return sendJson(res, 200, envelope(code, code === '000' ? { transactionId: 7 } : null));
    }
    if (url === '/api/v2/transaction/topup') {
      // Simulates the sandbox's delay trigger: far longer than the client's timeout.
      const t = setTimeout(() => sendJson(res, 200, envelope('000', { transactionId: 7 })), 5_000);
      timers.add(t);
      return;
    }
    if (url === '/custom/pin') return sendJson(res, 200, envelope('000', { transactionId: 8 }));
    if (url.startsWith('/api/v2/catalog/skus')) return sendJson(res, 200, envelope('000', []));
    return sendJson(res, 404, {});
  });
});

afterAll(async () => {
  for (const t of timers) clearTimeout(t);
  await server.close();
});

let client: GatewayClient | undefined;
beforeEach(async () => {
  await client?.close();
  client = undefined;
  statusScript.clear();
});

function config(input: TargetConfigInput = {}): ResolvedTargetConfig {
  const resolved = resolveTargetConfig({ user: 'agent', password: PASSWORD, baseUrl: server.url, ...input });
  if (!resolved.ok) throw new Error(resolved.issues.map((i) => i.message).join('; '));
  return withBaseUrl(resolved.config, server.url);
}

describe('gateway client', () => {
  it('calls an operation by id with query and Accept-Language', async () => {
    client = createGatewayClient(config());
    const { response: res } = await client.call('v2.catalog.skus', { query: { productId: 5, skuId: undefined }, acceptLanguage: 'ar' });
    expect(res.classification.outcome).toBe('Successful');
    const seen = server.requests.at(-1);
    expect(seen?.url).toBe('/api/v2/catalog/skus?productId=5');
    expect(seen?.headers['accept-language']).toBe('ar');
  });

  it('wrong credentials give HTTP 401, classified Failed', async () => {
    const resolved = config();
    client = createGatewayClient({ ...resolved, password: 'wrong' });
    const { response: res } = await client.call('v2.catalog.skus');
    expect(res.httpStatus).toBe(401);
    expect(res.classification.outcome).toBe('Failed');
  });

  it('scales the config timeouts by timeScale and honours per-call overrides in real ms', async () => {
    client = createGatewayClient(config({ timeScale: 0.01, timeouts: { responseMs: 20_000 } }));
    expect(client.timings.responseTimeoutMs).toBe(200);
    expect(client.timings.pollIntervalMs).toBe(50);
    expect(client.timings.pollDeadlineMs).toBe(1_800);
    const { response: res } = await client.call(
      'v2.transaction.topup',
      { body: { skuId: 1, amount: 5, mobile: '1876555555', correlationId: 'slow' } },
      { responseTimeoutMs: 150 },
    );
    expect(res.timedOut).toBe(true);
    expect(res.classification.outcome).toBe('Unknown');
  });

  it('after a client timeout, polls status (852, 852, 000) until Successful', async () => {
    client = createGatewayClient(config({ timeScale: 0.01 }));
    const { response: sent } = await client.call(
      'v2.transaction.topup',
      { body: { skuId: 1, amount: 5, mobile: '1876666666', correlationId: 'c-timeout' } },
      { responseTimeoutMs: 100 },
    );
    expect(sent.classification.outcome).toBe('Unknown');
    statusScript.set('c-timeout', ['852', '852', '000']);
    const result = await client.pollStatus('v2', 'c-timeout', { intervalMs: 20, deadlineMs: 5_000 });
    expect(result.final).toBe(true);
    expect(result.outcome).toBe('Successful');
    expect(result.attempts).toBe(3);
    expect(result.stoppedBy).toBe('final');
    expect(result.last.exchange.response.envelope?.payLoad).toEqual({ transactionId: 7 });
  });

  it('a final failure code from the status check is Failed (v1 path)', async () => {
    client = createGatewayClient(config());
    statusScript.set('c-fail', ['852', '501']);
    const result = await client.pollStatus('v1', 'c-fail', { intervalMs: 10, deadlineMs: 5_000 });
    expect(result).toMatchObject({ final: true, outcome: 'Failed', attempts: 2 });
    expect(server.requests.at(-1)?.url).toBe('/api/v1/transaction/status/c-fail');
  });

  it('status checks that get no envelope (reset, HTTP 503) keep polling instead of declaring failure', async () => {
    client = createGatewayClient(config());
    statusScript.set('c-flaky', ['reset', 'http503', '000']);
    const result = await client.pollStatus('v2', 'c-flaky', { intervalMs: 10, deadlineMs: 5_000 });
    expect(result).toMatchObject({ final: true, outcome: 'Successful', attempts: 3 });
  });

  it('stays in progress until the deadline, then reports InProgress (not final)', async () => {
    client = createGatewayClient(config());
    statusScript.set('c-stuck', ['852']);
    const result = await client.pollStatus('v2', 'c-stuck', { intervalMs: 20, deadlineMs: 200 });
    expect(result.final).toBe(false);
    expect(result.outcome).toBe('InProgress');
    expect(result.stoppedBy).toMatch(/deadline|max-attempts/);
    expect(result.attempts).toBeGreaterThanOrEqual(2);
    expect(result.attempts).toBeLessThanOrEqual(15);
  });

  it('gives up at once when the status endpoint rejects the credentials', async () => {
    client = createGatewayClient({ ...config(), password: 'wrong' });
    const result = await client.pollStatus('v2', 'c-any', { intervalMs: 10, deadlineMs: 5_000 });
    expect(result).toMatchObject({ final: false, outcome: 'Unknown', attempts: 1, stoppedBy: 'gave-up' });
  });

  it('sends an assumed write to its overridden path', async () => {
    client = createGatewayClient(config({ writePaths: { 'v2.transaction.pin': '/custom/pin' } }));
    const { response: res } = await client.call('v2.transaction.pin', { body: { skuId: 3, correlationId: 'p-1' } });
    expect(res.classification.outcome).toBe('Successful');
    expect(server.requests.at(-1)?.url).toBe('/custom/pin');
  });

  it('never puts the password into a transport error message', async () => {
    const closed = await startTestServer(() => undefined);
    const url = closed.url;
    await closed.close();
    client = createGatewayClient({ ...config(), baseUrl: url });
    const { response: res } = await client.call('v2.account.balance');
    expect(res.transportError?.code).toBe('GH_ERR_CONNECTION');
    expect(JSON.stringify(res)).not.toContain(PASSWORD);
  });
});
