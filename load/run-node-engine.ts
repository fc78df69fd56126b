// THE integration point of the Node engine (engine/, built on its own branch): `gateway-harness load --engine node`
// (and `auto` without a k6) ends here. Not a feature of this build: it refuses until the lead wires engine/run.ts in.
import { HarnessError } from '../api/errors.ts';

/** What the load runner hands to the engine (the shape engine/run.ts `runEngine` takes). */
export interface NodeEngineRequest {
  /** Path of a load/*.load.ts entry (the engine bundles or loads it itself). */
  readonly script: string;
  /** The run's environment (load/run-settings.ts), as k6 would see it in __ENV. */
  readonly env: Readonly<Record<string, string>>;
  /** k6-compatible NDJSON metric stream (`--out json=FILE`). */
  readonly outJson?: string;
  readonly summaryExport?: string;
  readonly workers?: number;
  readonly progress?: boolean;
  readonly cwd: string;
  readonly overrides?: { readonly vus?: number; readonly duration?: string; readonly iterations?: number };
}

export interface NodeEngineResult {
  /** k6 semantics: 0 passed, 99 thresholds crossed, ... */
  readonly exitCode: number;
  readonly summary?: unknown;
}

/**
 * Runs a scenario on the Node engine. Until the engine is merged this throws GH_ERR_USAGE (exit 2, one line); the
 * merge replaces the body with `return runEngine(request)` from engine/run.ts and nothing else changes.
 */
export async function runNodeEngine(request: NodeEngineRequest): Promise<NodeEngineResult> {
  void request;
  throw new HarnessError('GH_ERR_USAGE', 'the Node engine is not part of this build yet; install k6 (K6_BIN or PATH)');
}
