// The learned baseline's validators inside the bundle: none in this file; `load --baseline DIR` builds the bundle with
// this module replaced by ajv standalone code compiled from the baseline (drift/baseline-validators.ts, esbuild.config.mjs).
import type { BaselineValidators } from '../api/payload-checks.ts';

/** One validator per baseline operation, over the whole successful envelope; undefined when the run has no baseline. */
export const BASELINE_VALIDATORS: BaselineValidators | undefined = undefined;
