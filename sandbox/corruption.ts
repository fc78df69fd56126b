// Payload corruption: a profile's seeded fraction of an operation's successful responses is broken one declared way,
// and every corrupted response is counted per operation and JSON path, so load tests can hold the harness's violation
// counts against exactly what was served (GET /__sandbox/stats `corruptions`).
import { createRng } from './data/rng.ts';
import type { ProfileEnvelopeContext, ProfileHooks } from './profiles/hooks.ts';
import type { SandboxStats } from './stats.ts';

export interface PayloadCorruption {
  /** Operation ids whose successful ('000') responses may be corrupted. */
  readonly operations: readonly string[];
  /** Fraction (0..1) of those responses corrupted, drawn from the sandbox seed. */
  readonly rate: number;
  /** The JSON path the corruption breaks: the one path the harness must report for each corrupted response. */
  readonly path: string;
  /** Breaks the envelope in place; false when this response offers nothing to break (e.g. an empty list): not counted. */
  corrupt(envelope: Record<string, unknown>): boolean;
}

/**
 * The profile's hooks with its corruptions applied after them (the profile's own hook sees the faithful envelope),
 * each with its own seeded draws, in the order listed.
 */
export function withCorruption(
  hooks: ProfileHooks,
  corruptions: readonly PayloadCorruption[] | undefined,
  seed: number,
  stats: SandboxStats,
): ProfileHooks {
  if (corruptions === undefined || corruptions.length === 0) return hooks;
  const plans = corruptions.map((corruption, index) => ({
    corruption,
    operations: new Set(corruption.operations),
    rng: createRng((seed ^ 0xc0bb) + index),
  }));
  const onEnvelope = hooks.onEnvelope;
  return {
    ...hooks,
    onEnvelope(ctx: ProfileEnvelopeContext) {
      const change = onEnvelope?.(ctx) ?? undefined;
      const envelope = change?.envelope ?? ctx.envelope;
      if (ctx.httpStatus !== 200) return change;
      for (const { corruption, operations, rng } of plans) {
        if (!operations.has(ctx.operationId) || envelope.responseCode !== '000') continue;
        // One draw per eligible response, whatever its content: the sequence depends only on the seed and the order.
        if (rng.next() >= corruption.rate) continue;
        if (corruption.corrupt(envelope)) stats.corruption(ctx.operationId, corruption.path);
      }
      return { ...change, envelope };
    },
  };
}
