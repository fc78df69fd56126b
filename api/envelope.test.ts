// parseEnvelope and toGatewayResponse: tolerant of unknown fields, strict on the responseCode string.
import { describe, expect, it } from 'vitest';
import { parseEnvelope, toGatewayResponse } from './envelope.ts';

describe('parseEnvelope', () => {
  it('accepts the success and failure envelopes of the spec, with extra fields', () => {
    const ok = parseEnvelope('{"responseCode":"000","responseMessage":null,"payLoad":[1],"next":2,"next_cursor":5,"newField":true}');
    expect(ok).toEqual({
      ok: true,
      envelope: { responseCode: '000', responseMessage: null, payLoad: [1], next: 2, next_cursor: 5, newField: true },
    });
    const failed = parseEnvelope('{"responseCode":"501","responseMessage":"The Subscriber number is not valid","payLoad":null}');
    expect(failed.ok && failed.envelope.responseCode).toBe('501');
  });

  it.each([
    ['empty', '', /empty body/],
    ['whitespace', '  \n', /empty body/],
    ['not JSON', '<html>', /not JSON/],
    ['truncated JSON', '{"responseCode":"000",', /not JSON/],
    ['array', '[]', /not an object/],
    ['null', 'null', /not an object/],
    ['string', '"000"', /not an object/],
    ['numeric responseCode', '{"responseCode":0}', /responseCode is number/],
    ['null responseCode', '{"responseCode":null}', /responseCode is null/],
    ['missing responseCode', '{"payLoad":1}', /responseCode is missing/],
  ])('rejects %s', (_name, text, message) => {
    const parsed = parseEnvelope(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });

  it('quotes at most a short excerpt of a large bad body', () => {
    const parsed = parseEnvelope(`<${'x'.repeat(10_000)}`);
    expect(!parsed.ok && parsed.error.length).toBeLessThan(200);
  });
});

describe('toGatewayResponse', () => {
  const timings = { startedAt: 0, totalMs: 1 };
  it('classifies with the envelope code and keeps the body', () => {
    const res = toGatewayResponse({
      operationId: 'v2.transaction.giftcard',
      httpStatus: 200,
      bodyText: '{"responseCode":"852","responseMessage":"in progress","payLoad":null}',
      timedOut: false,
      timings,
    });
    expect(res.classification).toEqual({ outcome: 'InProgress', rule: 'in-progress-852', final: false });
    expect(res.envelope?.responseMessage).toBe('in progress');
    expect(res.parseError).toBeUndefined();
  });
  it('does not parse a body of a timed-out call (outcome Unknown)', () => {
    const res = toGatewayResponse({ operationId: 'x', httpStatus: 200, bodyText: '{"responseCode":"000"}', timedOut: true, timings });
    expect(res.envelope).toBeUndefined();
    expect(res.classification.outcome).toBe('Unknown');
  });
});
