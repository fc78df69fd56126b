// What k6/http reports → the shared GatewayResponse: k6's request timeout (status 0, error_code 1050) is a client
// timeout (Unknown), any other status-0 error a transport error (Unknown), and no credential survives into a message.
import { describe, expect, it } from 'vitest';
import type { BuiltRequest } from '../api/request-builder.ts';
import { K6_REQUEST_TIMEOUT, fromK6Response, requestTags, type K6ResponseLike } from './k6-response.ts';

const built: BuiltRequest = {
  operationId: 'v2.transaction.topup',
  method: 'POST',
  url: 'http://127.0.0.1:9/api/v2/transaction/topup',
  headers: { Authorization: 'Basic dXNlcjpwYXNz' },
  body: '{}',
};
const timings = { duration: 12, waiting: 10, sending: 1, connecting: 2, tls_handshaking: 0 };

function res(partial: Partial<K6ResponseLike>): K6ResponseLike {
  return { status: 200, error: '', error_code: 0, body: '', headers: {}, timings, ...partial };
}

describe('fromK6Response', () => {
  it('parses and classifies a gateway answer', () => {
    const response = fromK6Response(
      built,
      res({ body: '{"responseCode":"000","responseMessage":null,"payLoad":{}}', headers: { 'Content-Type': 'application/json' } }),
      1000,
      5000,
      [],
    );
    expect(response).toMatchObject({
      httpStatus: 200,
      timedOut: false,
      classification: { outcome: 'Successful' },
      headers: { 'content-type': 'application/json' },
    });
    expect(response.timings).toEqual({ startedAt: 1000, totalMs: 14, ttfbMs: 13 });
  });

  it("maps k6's request timeout (status 0, error_code 1050) to a client timeout: outcome Unknown", () => {
    const response = fromK6Response(
      built,
      res({ status: 0, error: 'request timeout', error_code: K6_REQUEST_TIMEOUT, body: null }),
      0,
      300,
      [],
    );
    expect(response).toMatchObject({
      timedOut: true,
      transportError: { code: 'GH_ERR_TIMEOUT' },
      classification: { outcome: 'Unknown', rule: 'client-timeout' },
    });
    expect(response.httpStatus).toBeUndefined();
  });

  it('maps other network errors (refused 1212, EOF 1000) to a transport error: outcome Unknown, not Failed', () => {
    for (const code of [1212, 1000]) {
      const response = fromK6Response(
        built,
        res({ status: 0, error: 'dial: connection refused', error_code: code, body: null }),
        0,
        300,
        [],
      );
      expect(response).toMatchObject({
        timedOut: false,
        transportError: { code: 'GH_ERR_CONNECTION' },
        classification: { outcome: 'Unknown', rule: 'no-response' },
      });
    }
  });

  it('redacts credentials from a network error message', () => {
    const response = fromK6Response(
      built,
      res({ status: 0, error: 'Post "http://user:pass@host/x": Basic dXNlcjpwYXNz rejected', error_code: 1000, body: null }),
      0,
      300,
      ['dXNlcjpwYXNz', 'pass'],
    );
    expect(response.transportError?.message).not.toMatch(/dXNlcjpwYXNz|user:pass/);
  });

  it('keeps an HTTP error status as a response (Failed by status), not a transport error', () => {
    const response = fromK6Response(built, res({ status: 503, error: '', error_code: 1503, body: '' }), 0, 300, []);
    expect(response).toMatchObject({ httpStatus: 503, timedOut: false, classification: { outcome: 'Failed', rule: 'http-not-200' } });
    expect(response.transportError).toBeUndefined();
  });
});

describe('requestTags', () => {
  it('tag a request by operation id, API version and URL template (one `name` per operation, not per id in the path)', () => {
    expect(requestTags('v2.transaction.status')).toEqual({
      operation: 'v2.transaction.status',
      api: 'v2',
      name: '/api/v2/transaction/status/{correlationId}',
    });
  });
});
