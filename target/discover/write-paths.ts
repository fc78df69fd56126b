// Learns the paths of the writes the spec does not show by probing candidates with a body the gateway must refuse
// (no skuId, which every request body requires; no amount): an envelope answer identifies the route, a 404 rules it out.
import type { GatewayResponse } from '../../api/envelope.ts';
import { OPERATIONS, type Operation } from '../../api/operations.ts';
import { confirmed, learned, unknown, type Finding } from './findings.ts';
import type { DiscoveryReader } from './reader.ts';

const ACTIONS = ['', 'purchase', 'order', 'pay', 'activate', 'activation', 'request'] as const;

/** The words a gateway may call each assumed write by (kebab and camel variants), and the action words that fit it. */
const WORDS: Readonly<Record<string, { stems: readonly string[]; actions: readonly string[] }>> = {
  pin: { stems: ['pin', 'pins'], actions: ACTIONS },
  billpay: { stems: ['billpay', 'bill-pay', 'billPay', 'bill'], actions: ACTIONS },
  giftcard: { stems: ['giftcard', 'gift-card', 'giftCard'], actions: ACTIONS },
  'sim-activation': {
    stems: ['sim', 'sim-activation', 'simActivation'],
    actions: ['', 'activate', 'activation', 'request', 'order', 'purchase'],
  },
  'sim-portin': {
    stems: ['sim/portin', 'sim/port-in', 'sim/portIn', 'portin', 'port-in', 'portIn', 'sim-portin', 'simPortin'],
    actions: ['', 'request', 'order'],
  },
  esim: { stems: ['esim', 'eSim', 'e-sim'], actions: ACTIONS },
  'estimated-cost': {
    stems: ['estimatecost', 'estimated-cost', 'estimatedCost', 'estimate-cost', 'estimateCost', 'estimate', 'cost/estimate'],
    actions: [''],
  },
};

export interface ProbeLimits {
  /** Most probes in all (the control probe included). */
  readonly maxProbes: number;
  /** Wall-clock budget of all probes (real ms). */
  readonly maxMs: number;
}

export const DEFAULT_PROBE_LIMITS: ProbeLimits = Object.freeze({ maxProbes: 900, maxMs: 120_000 });

/** Candidate paths of one assumed write, its assumed path first; none that the spec shows for another operation. */
export function candidatePaths(op: Operation): string[] {
  const words = WORDS[op.id.split('.')[2] ?? ''];
  const out = [op.path];
  for (const prefix of [`/api/${op.version}/transaction/`, `/api/${op.version}/`]) {
    for (const stem of words?.stems ?? [])
      for (const action of words?.actions ?? []) out.push(`${prefix}${stem}${action === '' ? '' : `/${action}`}`);
  }
  return [...new Set(out)];
}

/** Candidates of every assumed write, less those two writes share (a hit there could not tell them apart). */
function candidatesByOperation(ops: readonly Operation[]): Map<Operation, string[]> {
  const all = new Map(ops.map((op) => [op, candidatePaths(op)] as const));
  const count = new Map<string, number>();
  for (const paths of all.values()) for (const path of paths) count.set(path, (count.get(path) ?? 0) + 1);
  const shown = new Set(OPERATIONS.filter((op) => !op.pathAssumed).map((op) => op.path));
  for (const [op, paths] of all)
    all.set(
      op,
      paths.filter((p) => p === op.path || (count.get(p) === 1 && !shown.has(p))),
    );
  return all;
}

/** A body no write can accept: every request body requires skuId (spec, Request objects), and this has none, nor an amount. */
export function refusableBody(): Record<string, unknown> {
  return { correlationId: `gh-discover-probe-${Date.now().toString(36)}` };
}

type ProbeVerdict = 'route' | 'absent' | 'no-answer';

function judge(response: GatewayResponse): ProbeVerdict {
  if (response.timedOut || response.transportError !== undefined || response.httpStatus === undefined) return 'no-answer';
  if (response.httpStatus === 404 || response.httpStatus === 405) return 'absent';
  return typeof response.envelope?.responseCode === 'string' ? 'route' : 'absent';
}

function describe(response: GatewayResponse): string {
  const code = response.envelope?.responseCode;
  return `HTTP ${String(response.httpStatus)}${typeof code === 'string' ? `, envelope responseCode ${code}` : ', no envelope'}`;
}

interface Budget {
  readonly limits: ProbeLimits;
  readonly startedAt: number;
  used: number;
}

const spent = (budget: Budget): string | undefined =>
  budget.used >= budget.limits.maxProbes
    ? `the probe bound (${budget.limits.maxProbes}) was reached`
    : Date.now() - budget.startedAt > budget.limits.maxMs
      ? `the time bound (${budget.limits.maxMs} ms) was reached`
      : undefined;

/** Probes one write's candidates in order until one answers as a route. */
async function probeOperation(reader: DiscoveryReader, op: Operation, paths: readonly string[], budget: Budget): Promise<Finding> {
  const key = `writePaths.${op.id}`;
  const absent: string[] = [];
  for (const path of paths) {
    const stop = spent(budget);
    if (stop !== undefined)
      return unknown(key, op.path, `${stop} after ${absent.length} candidate(s) ruled out`, paths.slice(absent.length));
    budget.used += 1;
    const response = await reader.probe(op.id, path, refusableBody());
    const verdict = judge(response);
    if (verdict === 'route') {
      const before = absent.length === 0 ? '' : `; ${absent.length} candidate(s) before it answered 404 or no envelope`;
      const evidence = `POST ${path} with a body without skuId (required by every write) answered ${describe(response)}: a route${before}`;
      return path === op.path ? confirmed(key, path, evidence) : learned(key, path, evidence);
    }
    if (verdict === 'no-answer')
      return unknown(
        key,
        op.path,
        `POST ${path} got no answer (${response.timedOut ? 'timeout' : 'transport error'}): probing stopped for this write`,
      );
    absent.push(path);
  }
  return unknown(
    key,
    op.path,
    `none of ${paths.length} candidate paths answered with an envelope (each 404 or no envelope): set writePaths.${op.id}`,
  );
}

/** The control: a path no gateway serves. A target that answers it like a route answers every path, and probing cannot tell. */
async function controlAnswers(reader: DiscoveryReader, op: Operation): Promise<string | undefined> {
  const path = `/api/${op.version}/transaction/gh-discover-no-such-operation`;
  const response = await reader.probe(op.id, path, refusableBody());
  return judge(response) === 'route' ? `POST ${path} (a path no gateway serves) answered ${describe(response)}` : undefined;
}

export interface WritePathOptions {
  /** False on production without the money allowance: nothing is probed (bodies cannot charge, but the rule is absolute). */
  readonly allowed: boolean;
  readonly limits?: ProbeLimits;
}

export async function learnWritePaths(reader: DiscoveryReader, options: WritePathOptions): Promise<Finding[]> {
  const ops = OPERATIONS.filter((op) => op.pathAssumed);
  if (!options.allowed) {
    return ops.map((op) =>
      unknown(
        `writePaths.${op.id}`,
        op.path,
        'not probed: a production target without the money allowance (--allow-charges --max-spend) gets no write, not even one that cannot charge',
      ),
    );
  }
  const first = ops[0];
  const control = first === undefined ? undefined : await controlAnswers(reader, first);
  if (control !== undefined)
    return ops.map((op) =>
      unknown(`writePaths.${op.id}`, op.path, `${control}: every path answers alike, so no probe can identify a route`),
    );
  const budget: Budget = { limits: options.limits ?? DEFAULT_PROBE_LIMITS, startedAt: Date.now(), used: 1 };
  const candidates = candidatesByOperation(ops);
  return Promise.all(ops.map((op) => probeOperation(reader, op, candidates.get(op) ?? [op.path], budget)));
}
