// One line per response, whatever came back: the words conformance failures, drift and migrate print as `received`.
// Each kind of answer (none, not an envelope, each payload kind) reads as itself, and long values are clipped.
import { describe, expect, test } from 'vitest';
import { clip, describeResponse, payloadKindOf, show } from './describe.ts';
import { toGatewayResponse } from './envelope.ts';

const answer = (bodyText: string, httpStatus = 200) =>
  toGatewayResponse({ operationId: 'v2.catalog.skus', httpStatus, bodyText, timedOut: false, timings: { startedAt: 0, totalMs: 12 } });

describe('describeResponse', () => {
  test.each([
    [
      'a client timeout',
      toGatewayResponse({ operationId: 'v2.catalog.skus', timedOut: true, timings: { startedAt: 0, totalMs: 300.4 } }),
      'no response: client timed out after 300 ms',
    ],
    [
      'a transport error',
      toGatewayResponse({
        operationId: 'v2.catalog.skus',
        timedOut: false,
        transportError: { code: 'GH_ERR_CONNECTION', message: 'connect ECONNREFUSED' },
        timings: { startedAt: 0, totalMs: 1 },
      }),
      'no response: GH_ERR_CONNECTION connect ECONNREFUSED',
    ],
    ['a body that is not an envelope', answer('<html>', 502), /^HTTP 502, body not an envelope \(.+\)$/],
    [
      'a list',
      answer(JSON.stringify({ responseCode: '000', responseMessage: null, payLoad: [1, 2, 3] })),
      "HTTP 200, responseCode '000', responseMessage null, payLoad array[3]",
    ],
    [
      'a number',
      answer(JSON.stringify({ responseCode: '000', responseMessage: null, payLoad: 12.5 })),
      "HTTP 200, responseCode '000', responseMessage null, payLoad number 12.5",
    ],
    [
      'a refusal',
      answer(JSON.stringify({ responseCode: '009', responseMessage: 'Insufficient funds', payLoad: null })),
      'HTTP 200, responseCode \'009\', responseMessage "Insufficient funds", payLoad null',
    ],
  ])('%s', (_name, response, expected) => {
    if (typeof expected === 'string') expect(describeResponse(response)).toBe(expected);
    else expect(describeResponse(response)).toMatch(expected);
  });
});

describe('show, clip and payloadKindOf', () => {
  test('values as JSON on one line, absent for undefined, clipped at 240 characters', () => {
    expect(show(undefined)).toBe('absent');
    expect(show({ a: 'x\n y' })).toBe('{"a":"x\\n y"}');
    expect(clip('a\n\n  b')).toBe('a b');
    const long = show('x'.repeat(500));
    expect(long).toHaveLength(241);
    expect(long.endsWith('…')).toBe(true);
  });

  test('a value that JSON cannot write is shown as a string', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(show(circular)).toBe('[object Object]');
  });

  test('payload kinds', () => {
    expect([undefined, null, [], {}, 1, 'x'].map(payloadKindOf)).toEqual(['absent', 'null', 'array', 'object', 'number', 'string']);
  });
});
