// The transaction-result fields learned on the run's first charge: the field the transaction-taking read accepts and
// echoes is written into the run's one mapping (once, whatever the concurrency); two such fields pick neither.
import { describe, expect, it } from 'vitest';
import type { GatewayResponse } from '../../api/envelope.ts';
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { createChargeLearning, type ProbeRead, type ResultFieldRequest } from './charge-learning.ts';

/** A target whose read answers '000' with `record(id)` for the ids it knows, '027' otherwise; it counts the probes. */
function readAnswering(records: Readonly<Record<string, Record<string, unknown>>>): { probe: ProbeRead; sent: string[] } {
  const sent: string[] = [];
  const probe: ProbeRead = (_op, input) => {
    const id = String(input.path?.['id']);
    sent.push(id);
    const found = records[id];
    const envelope =
      found === undefined
        ? { responseCode: '027', responseMessage: 'No record found', payLoad: null }
        : { responseCode: '000', responseMessage: null, payLoad: found };
    return Promise.resolve({
      envelope,
      classification: { outcome: found === undefined ? 'Failed' : 'Successful' },
    } as unknown as GatewayResponse);
  };
  return { probe, sent };
}

const RESULT = { orderReference: 100000114, denominationId: 193, invoiceAmount: 5.25, status: 'Successful' };

function request(probe: ProbeRead, results: readonly unknown[] = [RESULT]): ResultFieldRequest {
  return { write: 'v1.transaction.giftcard', read: 'v1.transaction.giftcard-fetch', param: 'id', field: 'transactionId', results, probe };
}

describe('createChargeLearning', () => {
  it('learns the field the read accepts and echoes, writes it into the one mapping, and says so with its evidence', async () => {
    const target = readAnswering({ '100000114': { orderReference: 100000114, cardNumber: '4000' } });
    const learning = createChargeLearning(DEFAULT_FIELD_MAPPING);
    expect(await learning.resultValue(request(target.probe))).toEqual({ value: 100000114 });
    expect(learning.mapping.transaction.transactionId).toBe('orderReference');
    expect(DEFAULT_FIELD_MAPPING.transaction.transactionId).toBe('transactionId');
    expect(learning.findings()).toEqual([
      expect.objectContaining({
        key: 'fieldMapping.transaction.transactionId',
        status: 'learned',
        value: 'orderReference',
        evidence: expect.stringMatching(/giftcard-fetch with id=100000114 .*echoed it under orderReference.*learned on the first charge/),
      }),
    ]);
    // Integer fields only: the amount and the status word are no transaction id (spec: "path id int64").
    expect(target.sent).toEqual(['100000114', '193']);
  });

  it('learns once: concurrent results wait for the first learning and read through it; later results send no probe', async () => {
    const target = readAnswering({ '100000114': { orderReference: 100000114 }, '100000115': { orderReference: 100000115 } });
    const learning = createChargeLearning(DEFAULT_FIELD_MAPPING);
    const second = { ...RESULT, orderReference: 100000115 };
    const values = await Promise.all([learning.resultValue(request(target.probe)), learning.resultValue(request(target.probe, [second]))]);
    expect(values).toEqual([{ value: 100000114 }, { value: 100000115 }]);
    expect(target.sent).toHaveLength(2);
    expect(learning.findings()).toHaveLength(1);
  });

  it('reads through the mapping without a probe when the mapping reads the result', async () => {
    const target = readAnswering({});
    const learning = createChargeLearning(DEFAULT_FIELD_MAPPING);
    expect(await learning.resultValue(request(target.probe, [{ transactionId: 7 }]))).toEqual({ value: 7 });
    expect(target.sent).toEqual([]);
    expect(learning.findings()).toEqual([]);
  });

  it('two fields the read accepts and echoes: neither is picked, "not verified" naming the key and both candidates', async () => {
    // A target whose read takes any id and echoes every field of the result: the facts allow two readings.
    const echoAll: ProbeRead = () =>
      Promise.resolve({
        envelope: { responseCode: '000', payLoad: RESULT },
        classification: { outcome: 'Successful' },
      } as unknown as GatewayResponse);
    const learning = createChargeLearning(DEFAULT_FIELD_MAPPING);
    const got = await learning.resultValue(request(echoAll));
    expect(got).toEqual({
      reason: expect.stringMatching(
        /^not verified: fieldMapping\.transaction\.transactionId ambiguous: .*\(candidates: orderReference, denominationId\); set fieldMapping\.transaction\.transactionId$/,
      ),
    });
    expect(learning.mapping.transaction.transactionId).toBe('transactionId');
  });

  it('no field the read accepts: unknown, the fields tried named, the mapping unchanged', async () => {
    const learning = createChargeLearning(DEFAULT_FIELD_MAPPING);
    const got = await learning.resultValue(request(readAnswering({}).probe));
    expect(got).toEqual({
      reason: expect.stringMatching(
        /^not verified: fieldMapping\.transaction\.transactionId unknown: .*accepted none of its 2 candidate field\(s\) \(candidates: orderReference=100000114, denominationId=193\)/,
      ),
    });
    expect(learning.mapping.transaction.transactionId).toBe('transactionId');
  });
});
