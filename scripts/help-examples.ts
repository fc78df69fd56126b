// Two or three real command lines at the end of every command's --help, kept here as data so a test can parse each
// example's flags against the command it names (scripts/cli-vocabulary.test.ts).
import type { Command } from 'commander';

/** Examples by command path ('load', 'baseline record'), each the words after `gateway-harness`. */
export const HELP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  gate: [
    'gate --target https://sandbox.example.com --target-env sandbox --allow-skips',
    'gate --sandbox-profile bug-auth-not-required --seed 7',
    'gate --under-load',
  ],
  conformance: [
    'conformance --api v2 --grep ^AUTH-',
    'conformance --target https://sandbox.example.com --report-dir reports/out/conf',
    'conformance --under-load --api v2',
  ],
  fuzz: ['fuzz --gen-budget 90s', 'fuzz --seed 17 --grep GEN-PAGE-SIZE', "fuzz --grep '^GEN-PAGE-SIZE-OUTSIDE ' --replay 42:3:0:1"],
  load: [
    'load --scenario catalog-browse -u 5 -d 30s',
    'load --scenario mixed --profile load -o json=metrics.ndjson --summary-export summary-export.json',
    'load --script examples/topup-think-time.load.ts -i 20 -e MY_FLAG=on --target https://sandbox.example.com',
  ],
  baseline: ['baseline record --out-dir drift/baseline', 'baseline check --baseline drift/baseline --target https://sandbox.example.com'],
  'baseline record': [
    'baseline record --out-dir drift/baseline',
    'baseline record --target https://gw.example.com --target-env production --reads-only',
  ],
  'baseline check': ['baseline check', 'baseline check --baseline drift/baseline --target https://sandbox.example.com --allow-skips'],
  migrate: ['migrate', 'migrate --list', 'migrate --pairs catalog.skus,account.balance --requests 50 --concurrency 4'],
  reconcile: [
    'reconcile reports/out/RUN/ledger.jsonl',
    'reconcile reports/out/RUN/ledger.jsonl --target https://gw.example.com --deadline 60',
  ],
  sandbox: ['sandbox --port 8080', 'sandbox --sandbox-profile faults-mixed --faults --time-scale 0.01', 'sandbox --list-profiles'],
  build: ['build', 'build --out-dir /tmp/k6-bundles'],
  openapi: ['openapi --out-file openapi.json', 'openapi --server https://gw.example.com'],
  engine: ['engine run dist/k6/catalog-browse.js -u 2 -d 10s', 'engine run load/lookup.load.ts -i 5 --summary-export summary.json'],
  'engine run': [
    'engine run dist/k6/catalog-browse.js -u 2 -d 10s',
    'engine run load/lookup.load.ts -i 5 -e GATEWAY_ENV=sandbox --summary-export summary.json',
  ],
  'k6-operator': [
    'k6-operator --scenario catalog-browse --profile load --parallelism 4 --target https://sandbox.example.com',
    'k6-operator --scenario lookup --parallelism 2 -u 20 -d 5m --target http://gateway.svc:8080 --out-dir k8s/',
  ],
  'merge-results': [
    'merge-results results/*.ndjson.gz --thresholds k6-operator/gh-lookup-smoke/thresholds.json',
    'merge-results a.ndjson b.ndjson --scenario lookup --profile load',
  ],
  discover: [
    'discover --target https://sandbox.example.com',
    'discover --target http://127.0.0.1:8080 --write-config gateway-harness.config.json',
    'discover --target https://gw.example.com --target-env production --allow-charges --max-probes 200',
  ],
  calibrate: [
    'calibrate',
    'calibrate --scenario lookup --budget 30s',
    'calibrate --target http://127.0.0.1:8080 --max-vus 300 --step-duration 4s',
  ],
  compare: ['compare reports/out/last-green reports/out/this-run', 'compare old new --alpha 0.01 --allow-skips'],
};

/** A command's path as the examples key it: 'load', 'baseline record'. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent !== null && c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Appends the examples to every command's help, subcommands included. */
export function addHelpExamples(program: Command): void {
  for (const cmd of program.commands) {
    const examples = HELP_EXAMPLES[commandPath(cmd)] ?? [];
    if (examples.length > 0) cmd.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ gateway-harness ${e}`).join('\n')}\n`);
    addHelpExamples(cmd);
  }
}
