// Benchmark of catalog generation (`npx tsx sandbox/data/generate.bench.ts`): the conformance meta-test starts ~20
// sandboxes, each generating its data, so generation must stay well under 50 ms once warm. Prints, asserts nothing.
import { generateSandboxData } from './index.ts';

const RUNS = 40;
const now = Date.UTC(2025, 0, 15);
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  generateSandboxData(i + 1, { now });
  times.push(performance.now() - start);
}
const warm = times.slice(5).sort((a, b) => a - b);
const pct = (p: number): string => (warm[Math.min(warm.length - 1, Math.floor(p * warm.length))] ?? 0).toFixed(1);
const sample = generateSandboxData(1, { now });
console.log(`catalog: ${sample.skus.length} SKUs, ${sample.giftcardSkus.length} gift card SKUs, ${sample.products.length} products`);
console.log(`generate: cold ${(times[0] ?? 0).toFixed(1)} ms; warm p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms (${RUNS - 5} runs)`);
console.log(
  `v2 catalog/skus payload: ${JSON.stringify(sample.served.skus.en).length} bytes (en), ${Buffer.byteLength(JSON.stringify(sample.served.skus.ar))} bytes (ar)`,
);
