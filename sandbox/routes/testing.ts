// Test kit for the sandbox's own tests: an in-process app with JSON helpers that check the envelope invariants
// on every answer, so each behaviour test also proves "payLoad only with '000', responseMessage null on success".
import { buildApp } from '../app.ts';
import type { SandboxApp, SandboxOptions } from '../app.ts';

export const TEST_USER = 'user';
export const TEST_PASSWORD = 'pass';
export const AUTH_HEADER = `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}`;

export interface TestEnvelope {
  responseCode: string;
  responseMessage: string | null;
  payLoad: unknown;
  [extra: string]: unknown;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: TestEnvelope;
}

export interface TestClient {
  app: SandboxApp;
  get(url: string, headers?: Record<string, string>): Promise<TestResponse>;
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** Available funds as the balance endpoint reports them (negated back to a positive number). */
  funds(): Promise<number>;
  close(): Promise<void>;
}

/** Throws when an answer breaks the spec's envelope rules; returns the parsed envelope. */
export function checkEnvelope(text: string): TestEnvelope {
  const body = JSON.parse(text) as TestEnvelope;
  if (typeof body.responseCode !== 'string') throw new Error(`responseCode is not a string: ${text.slice(0, 200)}`);
  if (!('payLoad' in body) || !('responseMessage' in body))
    throw new Error(`envelope misses payLoad/responseMessage: ${text.slice(0, 200)}`);
  if (body.responseCode === '000' && body.responseMessage !== null) throw new Error(`success with a message: ${text.slice(0, 200)}`);
  if (body.responseCode !== '000' && body.payLoad !== null) throw new Error(`failure with a payload: ${text.slice(0, 200)}`);
  if (body.responseCode !== '000' && typeof body.responseMessage !== 'string')
    throw new Error(`failure without a message: ${text.slice(0, 200)}`);
  return body;
}

export async function testClient(options: SandboxOptions = {}): Promise<TestClient> {
  const app = await buildApp({ timeScale: 0.001, ...options });
  const request = async (
    method: 'GET' | 'POST',
    url: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse> => {
    const response = await app.fastify.inject({
      method,
      url,
      headers: { authorization: AUTH_HEADER, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, headers: response.headers, body: checkEnvelope(response.body) };
  };
  const client: TestClient = {
    app,
    get: (url, headers) => request('GET', url, undefined, headers),
    post: (url, body, headers) => request('POST', url, body, headers),
    async funds() {
      const response = await client.get('/api/v2/account/balance');
      // 0 - x rather than -x: an empty wallet is 0, not -0.
      return 0 - (response.body.payLoad as number);
    },
    close: () => app.close(),
  };
  return client;
}

/** A correlationId unique within a test run. */
let counter = 0;
export function newCorrelationId(prefix = 't'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/**
 * Waits until `condition` holds, checking every `intervalMs`, and throws naming `what` after `timeoutMs`: tests wait for
 * the state they need (bounded), never for a fixed time that a busy CPU can outlast.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 10_000, intervalMs = 5 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
