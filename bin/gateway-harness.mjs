#!/usr/bin/env node
// Package bin: runs the compiled CLI (scripts/cli.js, written by `npm pack`'s prepack) when the package has it; in a
// clone, where there is only TypeScript, it loads scripts/cli.ts through tsx (a dev dependency), with no build step.
import { existsSync } from 'node:fs';

// A reader that stops early (`gateway-harness load --help | head -3`) closes the pipe: what is left of the output has
// nowhere to go, and the command ends as it would have (a run is never cut short by it), never with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

const compiled = new URL('../scripts/cli.js', import.meta.url);
let cli;
if (existsSync(compiled)) {
  cli = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../scripts/cli.ts');
}
process.exitCode = await cli.main(process.argv);
