// Where a load bundle keeps its ledger and spend counter. On the Node engine, every worker thread gets a host from
// ledger/engine-host.ts (fsync'd appends, one counter in shared memory for all threads). On a real k6, where a script
// cannot write files and VUs share no memory, ledger lines are logged with a prefix for the harness to persist from k6's
// output, and each VU spends only its share of the cap. Runtime-neutral: no k6 import, no Node built-in.
import { createLocalBudget, type SpendBudget } from './budget.ts';
import type { BuiltRequest } from '../api/request-builder.ts';
import { asciiJson, CONSOLE_PREFIX, type LedgerLine, type LedgerRequestLine } from './entry.ts';
import type { MoneyHost } from './hooks.ts';
import { toCents, type BundleMoneySettings } from './money-settings.ts';

/** The global an engine thread's host is installed under (ledger/engine-host.ts). */
export const ENGINE_HOST_GLOBAL = '__gatewayHarnessMoney';

declare const console: { log(...values: unknown[]): void };

/** The engine's host, when this bundle runs on a Node engine thread that has one. */
export function engineHost(): MoneyHost | undefined {
  const host = (globalThis as Record<string, unknown>)[ENGINE_HOST_GLOBAL];
  return host !== null && typeof host === 'object' ? (host as MoneyHost) : undefined;
}

/** Scenario shapes as k6 options carry them (only the fields that bound the VU count). */
interface ScenarioShape {
  readonly executor?: string;
  readonly vus?: number;
  readonly maxVUs?: number;
  readonly preAllocatedVUs?: number;
  readonly startVUs?: number;
  readonly stages?: ReadonlyArray<{ readonly target?: number }>;
}

/** Most VUs the options can run at once, summed over scenarios (every VU k6 may initialise). */
export function maxVUsOf(scenarios: Readonly<Record<string, ScenarioShape>>): number {
  let total = 0;
  for (const s of Object.keys(scenarios).map((k) => scenarios[k] as ScenarioShape)) {
    const staged = (s.stages ?? []).reduce((m, st) => Math.max(m, st.target ?? 0), s.startVUs ?? 0);
    total += Math.max(1, s.maxVUs ?? 0, s.preAllocatedVUs ?? 0, s.vus ?? 0, staged);
  }
  return Math.max(1, total);
}

/** The header a request line travels in to the runner's recording gate (ledger/recording-gate.ts), and its refusal's. */
export const GATE_LINE_HEADER = 'x-gateway-harness-ledger';
export const GATE_REFUSED_HEADER = 'x-gateway-harness-refused';

/** The bundle's half of the recording gate: a request line kept by its request, and that request sent to the gate. */
export interface GateRoute {
  carry(line: LedgerRequestLine, built: BuiltRequest): void;
  /** Where a request goes: to the gate with its line when one was carried; undefined: straight to the target. */
  route(built: BuiltRequest): { readonly url: string; readonly headers: Record<string, string> } | undefined;
}

export function createGateRoute(gateUrl: string): GateRoute {
  const lines = new WeakMap<BuiltRequest, string>();
  return {
    carry: (line, built) => void lines.set(built, asciiJson(line)),
    route(built) {
      const line = lines.get(built);
      if (line === undefined) return undefined;
      lines.delete(built);
      // The gate forwards to the target's origin only: what follows the origin (a base path included) is kept.
      const origin = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]+/.exec(built.url)?.[0] ?? '';
      return { url: `${gateUrl}${built.url.slice(origin.length)}`, headers: { ...built.headers, [GATE_LINE_HEADER]: line } };
    },
  };
}

/**
 * k6's host. A line is logged (k6 writes console output to stderr at once); the request leaves right after, so on k6
 * "before the request" means: the line is emitted before the request is sent, and the harness writes and fsyncs it
 * as soon as it reads it (ledger/k6-capture.ts). Without the harness reading (a plain `k6 run`) nothing charging is sent.
 * With the runner's recording gate (`gate`), a request line goes with its request instead and is durable before the
 * request leaves the gate; outcome lines are still logged.
 */
export function consoleHost(money: BundleMoneySettings, vus: number, gate?: GateRoute): MoneyHost {
  const budget: SpendBudget | undefined =
    money.cap === undefined ? undefined : createLocalBudget(Math.floor(toCents(money.cap.amount) / Math.max(1, vus)));
  const append = money.ledger
    ? (line: LedgerLine): void => {
        if (money.capture !== true)
          throw new Error("no harness reads this run's output, so no ledger can be kept: run it with `gateway-harness load`");
        console.log(`${CONSOLE_PREFIX}${asciiJson(line)}`);
      }
    : undefined;
  return {
    ...(budget === undefined ? {} : { budget }),
    ...(append === undefined ? {} : { append }),
    ...(gate === undefined || append === undefined ? {} : { carry: gate.carry }),
  };
}
