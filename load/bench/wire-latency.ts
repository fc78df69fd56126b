// `npm run bench:wire -- --vus 50,100,200,500 --duration 10s`: the Node engine's reported http_req_duration beside what
// a measuring proxy in front of the sandbox (its own process, load/runner/capacity/proxy.ts) served, per VU count, with the
// generator's saturation windows. Prints figures side by side; asserts nothing.
import { parseArgs } from 'node:util';
import { probe } from '../runner/capacity/probe.ts';
import { startMeasuringProxy } from '../runner/capacity/proxy.ts';

const { values } = parseArgs({
  options: { vus: { type: 'string', default: '50,100,200,500' }, duration: { type: 'string', default: '10s' } },
});
const proxy = await startMeasuringProxy();
const ms = (v: number): string => v.toFixed(1);
console.log('| VUs | engine p50 / p95 / p99 ms | proxy served p50 / p95 / p99 ms | requests | generator windows |');
console.log('|---|---|---|---|---|');
try {
  for (const vus of (values.vus ?? '').split(',').map(Number)) {
    const r = await probe(proxy, { scenario: 'catalog-browse', vus, duration: values.duration ?? '10s' });
    const { reported: d, served: truth } = r;
    console.log(
      `| ${vus} | ${ms(d.p50)} / ${ms(d.p95)} / ${ms(d.p99)} | ${ms(truth.p50)} / ${ms(truth.p95)} / ${ms(truth.p99)} | ${r.requests} / ${truth.count} | ${r.windows.join('; ') || 'none'} |`,
    );
  }
} finally {
  proxy.close();
}
