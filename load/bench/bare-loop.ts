// The bench's limit row: the catalog-browse flow's own request sequence (same setup, URLs and bodies) sent by a bare Node
// loop — undici with one connection per VU, JSON.parse and the suite's checks (the same ajv validators) — with no k6 API,
// no metrics and no threads, so `bench:engine` can say what share of Node's own limit against the target the engine reaches.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClientCore, type ClientCore } from '../../api/client-core.ts';
import { createNodeTransport } from '../../client/node-transport.ts';
import { BASELINE_VALIDATORS } from '../baseline-validators.ts';
import { catalogBrowse } from '../flows/catalog-browse.ts';
import type { FlowContext, FlowRecorder } from '../flows/context.ts';
import { inspectExchange } from '../response-checks.ts';
import { readRunSettings } from '../run-settings.ts';
import { versionsOf } from '../scenarios.ts';

/** What the bench reads back (one JSON line on stdout). */
export interface BareLoopFigures {
  readonly iterations: number;
  readonly requests: number;
  readonly failedChecks: number;
  readonly checks: number;
  readonly seconds: number;
}

const NOOP_RECORD: FlowRecorder = { transaction: () => undefined, statusConfirms: () => undefined, warnOnce: () => undefined };

/** What a caller in the same process watches (bench:monitor): the loops' start after setup, and each response's time. */
export interface BareLoopWatch {
  readonly onStart?: () => void;
  /** The client core's totalMs of each response after setup, ms. */
  readonly onResponse?: (totalMs: number) => void;
}

/** Runs `vus` loops of catalog-browse iterations for `seconds` against the target the suite environment names. */
export async function runBareLoop(
  env: Readonly<Record<string, string | undefined>>,
  vus: number,
  seconds: number,
  watch: BareLoopWatch = {},
): Promise<BareLoopFigures> {
  const settings = readRunSettings(env);
  const options = {
    schemaChecks: settings.schemaChecks,
    notFoundCodes: settings.status.notFoundCodes,
    promoteObserved: settings.promoteObserved,
    envelopeOnly: !settings.payloadChecks,
    ...(BASELINE_VALIDATORS === undefined ? {} : { baseline: BASELINE_VALIDATORS }),
  };
  let requests = 0;
  let checks = 0;
  let failedChecks = 0;
  let started = false;
  const transport = createNodeTransport({ connections: vus });
  const client: ClientCore = createClientCore({
    target: settings.target,
    transport,
    timings: settings.timings,
    status: settings.status,
    now: () => Date.now(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    hooks: {
      afterResponse: (exchange) => {
        requests++;
        if (started) watch.onResponse?.(exchange.response.timings.totalMs);
        for (const c of inspectExchange(exchange, options).checks) {
          checks++;
          if (!c.ok) failedChecks++;
        }
      },
    },
  });
  const versions = versionsOf(settings.api);
  let serial = 0;
  const context = (iteration: number): FlowContext => ({
    client,
    settings,
    versions,
    iteration,
    record: NOOP_RECORD,
    correlationId: () => `bare-${iteration}-${serial++}`,
    random: Math.random,
  });
  try {
    const data = await catalogBrowse.setup(context(0));
    requests = 0;
    checks = 0;
    failedChecks = 0;
    let next = 0;
    let iterations = 0;
    const t0 = performance.now();
    started = true;
    watch.onStart?.();
    const end = t0 + seconds * 1000;
    await Promise.all(
      Array.from({ length: vus }, async () => {
        while (performance.now() < end) {
          await catalogBrowse.iteration(context(next++), data);
          iterations++;
        }
      }),
    );
    return { iterations, requests, checks, failedChecks, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await transport.close();
  }
}

// As a process (the bench runs it like the engines: `tsx bare-loop.ts VUS SECONDS`, settings in the environment).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [vus, seconds] = process.argv.slice(2).map(Number);
  const figures = await runBareLoop(process.env, vus ?? 1, seconds ?? 10);
  process.stdout.write(`GH_BARE ${JSON.stringify(figures)}\n`);
}
