#!/usr/bin/env node
// Package bin: loads the TypeScript CLI through tsx, so a clean clone runs `npx gateway-harness` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../scripts/cli.ts');
process.exitCode = await main(process.argv);
