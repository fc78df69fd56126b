// The remote-write output's own thread: the controller hands it the run's point lines as they come and it cuts,
// aggregates and pushes them (output.ts) off the controller's thread, where an embedded target may be serving.
import { parentPort, workerData } from 'node:worker_threads';
import type { MetricDef } from '../metrics/store.ts';
import type { RemoteWriteConfig } from './config.ts';
import { RemoteWriteOutput } from './output.ts';

export type ToRemoteWriteThread =
  { type: 'defs'; defs: MetricDef[] } | { type: 'lines'; text: string } | { type: 'start' } | { type: 'stop' };
export type FromRemoteWriteThread = { type: 'log'; text: string } | { type: 'stopped'; stats: ReturnType<RemoteWriteOutput['stats']> };

const port = parentPort;
if (port === null) throw new Error('engine/remote-write/thread.ts runs as a worker thread');
const defs = new Map<string, MetricDef>();
const output = new RemoteWriteOutput(
  (workerData as { config: RemoteWriteConfig }).config,
  (name) => defs.get(name),
  (text) => port.postMessage({ type: 'log', text } satisfies FromRemoteWriteThread),
);
port.on('message', (m: ToRemoteWriteThread) => {
  switch (m.type) {
    case 'defs':
      for (const def of m.defs) defs.set(def.name, def);
      break;
    case 'lines':
      output.addPointLines(m.text);
      break;
    case 'start':
      output.start();
      break;
    case 'stop':
      void output.stop().then((stats) => port.postMessage({ type: 'stopped', stats } satisfies FromRemoteWriteThread));
      break;
  }
});
