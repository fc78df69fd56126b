// The list of subcommands; each module exports one `register(program)` that adds its command and options.
import type { Command } from 'commander';
import { register as registerSandbox } from './sandbox.ts';
import { register as registerConformance } from './conformance.ts';
import { register as registerEngine } from '../../engine/cli.ts';

export type RegisterCommand = (program: Command) => void;

export const COMMANDS: readonly RegisterCommand[] = [registerConformance, registerSandbox, registerEngine];
