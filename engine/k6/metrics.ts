// `k6/metrics`: Counter, Gauge, Rate, Trend. Declared in the init context (as k6 requires), each add() records a sample
// with the VU's tags plus the call's tags into the thread's MetricStore.
import type { MetricType } from '../thresholds.ts';
import type { ModuleVU } from './module-vu.ts';

export function createMetricsModule(vu: ModuleVU): Record<string, unknown> {
  const make = (type: MetricType) =>
    class {
      readonly name: string;
      constructor(name: string, isTime = false) {
        if (!vu.initPhase) throw new Error('metrics must be declared in the init context');
        this.name = String(name);
        vu.runtime.store.define({ name: this.name, type, contains: type === 'trend' && isTime === true ? 'time' : 'default' });
      }
      add(value: unknown, tags?: Record<string, string>): boolean {
        vu.assertRunning();
        if (vu.initPhase) throw new Error('cannot add metric samples in the init context');
        let v: number;
        if (typeof value === 'boolean') v = value ? 1 : 0;
        else v = Number(value);
        if (Number.isNaN(v))
          throw new Error(`'${String(value)}' is an invalid value for metric '${this.name}', a number or a boolean value is expected`);
        const base = vu.baseTags();
        if (tags !== undefined && tags !== null) for (const k of Object.keys(tags)) base[k] = String(tags[k]);
        vu.emit(this.name, type === 'rate' ? (v !== 0 ? 1 : 0) : v, base);
        return true;
      }
    };
  return { Counter: make('counter'), Gauge: make('gauge'), Rate: make('rate'), Trend: make('trend') };
}
