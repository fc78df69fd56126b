// The measuring proxy from the parent's side: starts measuring-proxy.ts in a process of its own (so its clock is not the
// load generator's), and asks it what it served since the last ask. bench:wire and `gateway-harness calibrate` use it.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ProxyMessage } from './measuring-proxy.ts';

export type Served = Extract<ProxyMessage, { type: 'stats' }>;

export interface MeasuringProxy {
  /** Where the load generator sends its requests. */
  readonly url: string;
  /** What the proxy served since the last call (quantiles in ms). */
  served(): Promise<Served>;
  close(): void;
}

/** The child entry beside this file: .ts from a clone (run through tsx), .js from the built package. */
function childEntry(): { path: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const typescript = here.endsWith('.ts');
  return {
    path: here.replace(/proxy\.(ts|js)$/, `measuring-proxy.${typescript ? 'ts' : 'js'}`),
    execArgv: typescript ? ['--import', 'tsx'] : [],
  };
}

function nextMessage(child: ChildProcess): Promise<ProxyMessage> {
  return new Promise((resolveMessage, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`the measuring proxy exited (${code ?? 'signal'})`));
    child.once('exit', onExit);
    child.once('message', (m: ProxyMessage) => {
      child.off('exit', onExit);
      resolveMessage(m);
    });
  });
}

/** Starts the proxy in front of `upstream` (a target's base URL), or in front of an embedded sandbox of its own. */
export async function startMeasuringProxy(upstream?: string): Promise<MeasuringProxy> {
  const entry = childEntry();
  const child = fork(entry.path, upstream === undefined ? [] : [upstream], {
    execArgv: entry.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await nextMessage(child);
  if (ready.type !== 'ready') throw new Error(`the measuring proxy did not start: ${JSON.stringify(ready)}`);
  return {
    url: ready.url,
    async served() {
      const reply = nextMessage(child);
      child.send({ type: 'stats' });
      const stats = await reply;
      if (stats.type !== 'stats') throw new Error('the measuring proxy sent no figures');
      return stats;
    },
    close() {
      if (child.connected) child.disconnect();
    },
  };
}
