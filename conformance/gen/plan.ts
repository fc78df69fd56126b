// The plan with GEN: the hand-written cases followed by the GEN properties of one seed and budget. The conformance command
// and the gate run this; `fuzz` runs the GEN part alone; the planted-bug meta-test keeps the hand-written plan (ALL_CASES).
import { ALL_CASES, selectCases, type Selection } from '../plan.ts';
import type { ConformanceCase } from '../types.ts';
import { genCases } from './cases.ts';
import type { GenOptions } from './options.ts';

export function planWithGen(selection: Selection, gen: GenOptions | undefined): ConformanceCase[] {
  return selectCases(selection, gen === undefined ? ALL_CASES : [...ALL_CASES, ...genCases(gen)]);
}

export function genOnly(selection: Selection, gen: GenOptions): ConformanceCase[] {
  return selectCases(selection, genCases(gen));
}
