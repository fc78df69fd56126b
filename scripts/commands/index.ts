// The list of subcommands; each module exports one `register(program)` that adds its command and options.
import type { Command } from 'commander';
import { register as registerSandbox } from './sandbox.ts';
import { register as registerGate } from './gate.ts';
import { register as registerConformance } from './conformance.ts';
import { register as registerFuzz } from './fuzz.ts';
import { register as registerBaseline } from './baseline.ts';
import { register as registerMigrate } from './migrate.ts';
import { register as registerOpenApi } from './openapi.ts';
import { register as registerLoad } from './load.ts';
import { register as registerBuild } from './build.ts';
import { register as registerReconcile } from './reconcile.ts';
import { register as registerEngine } from '../../engine/cli.ts';
import { register as registerK6Operator } from './k6-operator.ts';
import { register as registerMergeResults } from './merge-results.ts';
import { register as registerCompare } from './compare.ts';
import { register as registerDiscover } from './discover.ts';
import { register as registerCalibrate } from './calibrate.ts';

export type RegisterCommand = (program: Command) => void;

export const COMMANDS: readonly RegisterCommand[] = [
  registerGate,
  registerConformance,
  registerFuzz,
  registerLoad,
  registerBaseline,
  registerMigrate,
  registerReconcile,
  registerDiscover,
  registerSandbox,
  registerBuild,
  registerOpenApi,
  registerEngine,
  registerK6Operator,
  registerMergeResults,
  registerCompare,
  registerCalibrate,
];
