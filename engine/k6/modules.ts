// The k6 modules the engine implements, by import name: the export list the bundler checks imports against, and the
// per-VU instances. Reading a member the engine does not implement throws, naming it and suggesting k6.
import { renderTextSummary, type K6SummaryData } from '../summary.ts';
import type { ModuleVU } from './module-vu.ts';
import { createCoreModule } from './core.ts';
import { createDataModule, createEncodingModule } from './data.ts';
import { createExecutionModule } from './execution.ts';
import { createHttpModule } from './http.ts';
import { createMetricsModule } from './metrics.ts';

/** Named exports per supported module (the bundler turns these into the module's ES exports). */
export const MODULE_EXPORTS: Readonly<Record<string, readonly string[]>> = {
  k6: ['check', 'group', 'sleep', 'fail', 'randomSeed'],
  'k6/http': [
    'request',
    'asyncRequest',
    'get',
    'head',
    'post',
    'put',
    'patch',
    'del',
    'options',
    'batch',
    'expectedStatuses',
    'setResponseCallback',
    'url',
    'TLS_1_2',
    'TLS_1_3',
    'OCSP_STATUS_GOOD',
  ],
  'k6/metrics': ['Counter', 'Gauge', 'Rate', 'Trend'],
  'k6/execution': ['scenario', 'vu', 'instance', 'test'],
  'k6/data': ['SharedArray'],
  'k6/encoding': ['b64encode', 'b64decode'],
  'k6/timers': ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
  /** https://jslib.k6.io/k6-summary/<version>/index.js: served by the engine itself (it fetches no remote module). */
  'jslib/k6-summary': ['textSummary'],
};

const FACTORIES: Record<string, (vu: ModuleVU) => Record<string, unknown>> = {
  k6: createCoreModule,
  'k6/http': createHttpModule,
  'k6/metrics': createMetricsModule,
  'k6/execution': createExecutionModule,
  'k6/data': createDataModule,
  'k6/encoding': () => createEncodingModule(),
  'k6/timers': () => ({ setTimeout, clearTimeout, setInterval, clearInterval }),
  'jslib/k6-summary': () => ({ textSummary: (data: unknown) => renderTextSummary(data as K6SummaryData) }),
};

export function unsupportedMessage(what: string): string {
  return `${what} is not implemented by the node engine; run this script with k6 (gateway-harness load --engine k6)`;
}

/** Members every object answers without being "used" (inspection, promise checks, interop helpers). */
const PASSIVE = new Set(['then', 'toJSON', 'constructor', '__esModule', 'inspect', 'default']);

function guarded(name: string, impl: Record<string, unknown>): Record<string, unknown> {
  return new Proxy(impl, {
    get(target, prop, receiver) {
      if (typeof prop === 'symbol' || prop in target || PASSIVE.has(prop)) return Reflect.get(target, prop, receiver) as unknown;
      throw new Error(unsupportedMessage(`${name}.${prop}`));
    },
  });
}

/**
 * `require(name)` of a name known only at run time (`require('k6/' + x)`): the module with every member guarded, so a
 * member the engine does not implement says so as an import of it would have at load time.
 */
export function requiredModule(modules: (name: string) => unknown, name: unknown): unknown {
  if (typeof name !== 'string') throw new Error(`require(${String(name)}): a module name is a string`);
  return guarded(name, modules(name) as Record<string, unknown>);
}

/** Returns a resolver of module name → this VU's instance (created on first import). */
export function createModules(vu: ModuleVU): (name: string) => unknown {
  const cache = new Map<string, unknown>();
  return (name) => {
    let mod = cache.get(name);
    if (mod === undefined) {
      const factory = FACTORIES[name];
      if (factory === undefined) throw new Error(unsupportedMessage(`module ${name}`));
      const impl = factory(vu);
      const def = (impl.default as Record<string, unknown> | undefined) ?? impl;
      mod = { ...impl, default: guarded(name, def) };
      cache.set(name, mod);
    }
    return mod;
  };
}
