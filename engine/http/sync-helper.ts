// The helper thread behind k6's synchronous HTTP calls (http.get, http.request, http.batch): it performs the requests
// and wakes the blocked VU thread through a shared flag; the VU thread reads the answer with receiveMessageOnPort.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createAgent, performRequest, type HttpRequestSpec } from './perform.ts';

const { port, flag, noConnectionReuse, maxRedirects } = workerData as {
  port: MessagePort;
  flag: Int32Array;
  noConnectionReuse: boolean;
  maxRedirects: number;
};
const agent = createAgent({ noConnectionReuse });

port.on('message', (specs: HttpRequestSpec[]) => {
  void Promise.all(specs.map((spec) => performRequest(agent, spec, undefined, maxRedirects))).then((results) => {
    port.postMessage(results);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
});

// Loaded and listening: the thread that started this helper may now block on it (its warm-up waits for this line).
parentPort?.postMessage('ready');
