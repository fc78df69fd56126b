// The generator's series on a remote-write receiver: names, labels and units as engine/README.md documents them, in
// one push at the end of a short run; a receiver that refuses is counted, never thrown.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeWriteRequestBody } from '../../engine/remote-write/wire.ts';
import { enginePrometheusConfig } from './prometheus-output.ts';
import { startGeneratorPusher } from './generator-prometheus.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server === undefined ? r() : server.close(() => r()))));

async function receiver(status: number): Promise<{ url: string; bodies: Buffer[] }> {
  const bodies: Buffer[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}/api/v1/write`, bodies };
}

describe('gateway_harness_generator_* on Prometheus remote write', () => {
  it('pushes each figure as a series labelled with the engine and the run id, times in seconds', async () => {
    const r = await receiver(204);
    const pusher = startGeneratorPusher(enginePrometheusConfig(r.url, {}), 'run-1', 'node');
    pusher.add({ t: 1_000, cpuShare: 0.5, loopDelayP99Ms: 250, busyShare: 1 });
    pusher.add({ t: 2_000, cpuShare: 0.25, loopDelayP99Ms: 20, busyShare: 0.5 });
    expect(await pusher.finish()).toEqual({ pushes: 1, failed: 0 });
    const series = decodeWriteRequestBody(r.bodies[0] as Buffer).timeseries;
    const byName = Object.fromEntries(series.map((s) => [s.labels.find((l) => l.name === '__name__')?.value, s]));
    expect(Object.keys(byName).sort()).toEqual([
      'gateway_harness_generator_busy_share',
      'gateway_harness_generator_cpu_share',
      'gateway_harness_generator_event_loop_delay_p99_seconds',
    ]);
    expect(byName.gateway_harness_generator_event_loop_delay_p99_seconds?.samples).toEqual([
      { value: 0.25, timestamp: 1_000 },
      { value: 0.02, timestamp: 2_000 },
    ]);
    expect(byName.gateway_harness_generator_cpu_share?.labels).toEqual([
      { name: '__name__', value: 'gateway_harness_generator_cpu_share' },
      { name: 'engine', value: 'node' },
      { name: 'testid', value: 'run-1' },
    ]);
  });

  it('counts a refused push and goes on', async () => {
    const r = await receiver(500);
    const pusher = startGeneratorPusher(enginePrometheusConfig(r.url, {}), 'run-2', 'k6');
    pusher.add({ t: 1_000, cpuShare: 0.97, runQueueShare: 0.1, waitPerSliceMs: 2 });
    expect(await pusher.finish()).toMatchObject({ pushes: 1, failed: 1, lastError: expect.stringMatching(/HTTP status 500/) });
  });
});
