// STATUS: a final result stays final on every later read of the status check — a success stays a success, a failure a
// failure, neither goes back to '852'. The outcome class is asserted; another code of the same class is only a warning.
import { getOperation, type ApiVersion } from '../../api/operations.ts';
import type { ConformanceCase, Exchange } from '../types.ts';
import { ASSUMED, SECTION, V, VERSIONS, requireSuccess, submitAndFinish, validWriteBody } from './common.ts';
import { STATUS_RULE, expectFinalHolds, finalOf } from './final.ts';
import { TRIGGERS, triggerBody } from './trg.ts';
import { describeResponse } from '../../api/describe.ts';

/** Later reads of each final result (one poll interval apart). */
export const STATUS_READS = 3;

interface StatusKind {
  /** Id stem, e.g. 'TOPUP-000'. */
  readonly key: string;
  /** Write purpose (the status check covers RTR, PIN and gift card transactions). */
  readonly purpose: 'transaction.topup' | 'transaction.pin' | 'transaction.giftcard';
  readonly title: string;
  /** A trigger of the spec's table, or undefined for an ordinary valid body (expected to succeed). */
  readonly trigger?: '510' | '500' | '001';
}

const KINDS: readonly StatusKind[] = [
  { key: 'TOPUP-000', purpose: 'transaction.topup', title: 'a successful top-up' },
  { key: 'TOPUP-510', purpose: 'transaction.topup', title: "a top-up failed with '510' (trigger)", trigger: '510' },
  { key: 'TOPUP-500', purpose: 'transaction.topup', title: "a top-up failed with '500' (trigger)", trigger: '500' },
  { key: 'TOPUP-001', purpose: 'transaction.topup', title: "a top-up failed with '001' (trigger)", trigger: '001' },
  { key: 'PIN-000', purpose: 'transaction.pin', title: 'a successful PIN purchase' },
  { key: 'GIFTCARD-000', purpose: 'transaction.giftcard', title: "a successful gift card purchase (after '852')" },
];

function statusCase(version: ApiVersion, kind: StatusKind): ConformanceCase {
  const op = getOperation(`${version}.${kind.purpose}`);
  const trigger = kind.trigger === undefined ? undefined : TRIGGERS.find((t) => t.key === kind.trigger);
  return {
    kind: 'scenario',
    id: `STATUS-${kind.key}-${V(version)}`,
    group: 'STATUS',
    title: `${kind.title} stays final on ${STATUS_READS} later status checks (same outcome; another code only warns)`,
    specSection: `${SECTION.writes} (Per-operation rules: Status check); ${SECTION.states}${trigger === undefined ? '' : `; ${SECTION.triggers}`}`,
    rule: `${STATUS_RULE}${trigger === undefined ? '' : ` ${trigger.rule}`}`,
    api: version,
    assumed: [ASSUMED.skuFields, ...(op.pathAssumed ? [ASSUMED.writePath(op)] : [])],
    async scenario(ctx) {
      const body = trigger === undefined ? validWriteBody(ctx, await ctx.fixtures(), op) : await triggerBody(ctx, trigger);
      const correlationId = String(body.correlationId);
      const { submitted, final } = await submitAndFinish(ctx, version, op.id, body);
      const answer: Exchange = final ?? submitted;
      if (trigger === undefined) requireSuccess(ctx, answer, `the ${op.id} whose status is read`);
      const result = finalOf(final);
      if (result === undefined) return; // submitAndFinish recorded why
      if (trigger !== undefined && result.outcome !== 'Failed') {
        ctx.fail({
          check: 'trigger-fails',
          operation: op.id,
          message: `the trigger ${trigger.key} did not end in a failure: nothing to read back`,
          expected: `a final failure (responseCode ${'code' in trigger.effect ? trigger.effect.code : '?'})`,
          received: describeResponse(answer.response),
          request: answer.request,
        });
        return;
      }
      for (let read = 1; read <= STATUS_READS; read++) {
        await ctx.sleep(ctx.timing.pollIntervalMs);
        await expectFinalHolds(ctx, version, correlationId, result, `read ${read} of ${STATUS_READS}`);
      }
    },
  };
}

export const STATUS_CASES: readonly ConformanceCase[] = VERSIONS.flatMap((version) => KINDS.map((kind) => statusCase(version, kind)));
