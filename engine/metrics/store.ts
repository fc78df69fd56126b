// The metric registry and aggregator of one worker (or of the controller after merging): k6's built-in metrics, custom
// metrics declared in the init context, submetrics selected by tags (from thresholds), and exact merge of worker states.
import type { MetricType } from '../thresholds.ts';
import { newSink, sinkFromState, type Sink, type SinkState } from './sinks.ts';

export type MetricContains = 'default' | 'time' | 'data';

export interface MetricDef {
  name: string;
  type: MetricType;
  contains: MetricContains;
}

export interface SubmetricDef {
  /** The parent metric. */
  metric: string;
  /** `metric{inner}` as k6 names it in the summary. */
  name: string;
  /** The inner text of the braces (k6's `suffix`). */
  suffix: string;
  tags: Array<[string, string]>;
}

/** k6's built-in metrics (metrics/builtin.go) that the engine emits. */
export const BUILTIN_METRICS: readonly MetricDef[] = [
  { name: 'vus', type: 'gauge', contains: 'default' },
  { name: 'vus_max', type: 'gauge', contains: 'default' },
  { name: 'iterations', type: 'counter', contains: 'default' },
  { name: 'iteration_duration', type: 'trend', contains: 'time' },
  { name: 'dropped_iterations', type: 'counter', contains: 'default' },
  { name: 'checks', type: 'rate', contains: 'default' },
  { name: 'group_duration', type: 'trend', contains: 'time' },
  { name: 'http_reqs', type: 'counter', contains: 'default' },
  { name: 'http_req_failed', type: 'rate', contains: 'default' },
  { name: 'http_req_duration', type: 'trend', contains: 'time' },
  { name: 'http_req_blocked', type: 'trend', contains: 'time' },
  { name: 'http_req_connecting', type: 'trend', contains: 'time' },
  { name: 'http_req_tls_handshaking', type: 'trend', contains: 'time' },
  { name: 'http_req_sending', type: 'trend', contains: 'time' },
  { name: 'http_req_waiting', type: 'trend', contains: 'time' },
  { name: 'http_req_receiving', type: 'trend', contains: 'time' },
  { name: 'data_sent', type: 'counter', contains: 'data' },
  { name: 'data_received', type: 'counter', contains: 'data' },
];

/** k6 always adds this submetric so its end-of-test summary can show the duration of expected responses. */
export const EXPECTED_RESPONSE_SUBMETRIC: SubmetricDef = {
  metric: 'http_req_duration',
  name: 'http_req_duration{expected_response:true}',
  suffix: 'expected_response:true',
  tags: [['expected_response', 'true']],
};

/** k6's rule for metric names (metrics/registry.go): letters, digits, underscores, 1..128, not starting with a digit. */
const METRIC_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,127}$/;

export type Tags = Record<string, string>;

/** Receives every sample (the NDJSON writer). */
export type SampleListener = (metric: MetricDef, value: number, tags: Tags, time: number) => void;

interface Entry {
  def: MetricDef;
  sink: Sink;
  /** Only metrics that received a sample appear in the summary, like k6. */
  touched: boolean;
  subs: Array<{ def: SubmetricDef; sink: Sink }>;
}

export interface StoreState {
  metrics: Array<{ def: MetricDef; touched: boolean; sink: SinkState; subs: Array<{ name: string; sink: SinkState }> }>;
}

export class MetricStore {
  private readonly entries = new Map<string, Entry>();
  private readonly pendingSubs: SubmetricDef[] = [];
  listener: SampleListener | undefined;

  constructor(submetrics: readonly SubmetricDef[] = [], defs: readonly MetricDef[] = BUILTIN_METRICS) {
    for (const def of defs) this.define(def);
    for (const sub of submetrics) this.addSubmetric(sub);
  }

  /** Declares a metric (built-in or `new Trend(...)` in the init context); redeclaring with another type fails like k6. */
  define(def: MetricDef): void {
    if (!METRIC_NAME.test(def.name)) {
      throw new Error(
        `Invalid metric name: '${def.name}'. A metric name must only include up to 128 ASCII letters, numbers, or underscores and start with a letter or an underscore.`,
      );
    }
    const existing = this.entries.get(def.name);
    if (existing !== undefined) {
      if (existing.def.type !== def.type || existing.def.contains !== def.contains) {
        throw new Error(`metric '${def.name}' already exists but with type ${existing.def.type}, instead of ${def.type}`);
      }
      return;
    }
    const entry: Entry = { def, sink: newSink(def.type), touched: false, subs: [] };
    this.entries.set(def.name, entry);
    for (const sub of this.pendingSubs.filter((s) => s.metric === def.name)) entry.subs.push({ def: sub, sink: newSink(def.type) });
  }

  addSubmetric(sub: SubmetricDef): void {
    const entry = this.entries.get(sub.metric);
    const same = (a: SubmetricDef): boolean =>
      a.tags.length === sub.tags.length && a.tags.every(([k, v]) => sub.tags.some(([k2, v2]) => k === k2 && v === v2));
    if (entry === undefined) {
      if (!this.pendingSubs.some((s) => s.metric === sub.metric && same(s))) this.pendingSubs.push(sub);
      return;
    }
    if (!entry.subs.some((s) => same(s.def))) entry.subs.push({ def: sub, sink: newSink(entry.def.type) });
  }

  get(name: string): MetricDef | undefined {
    return this.entries.get(name)?.def;
  }

  typeOf = (name: string): MetricType | undefined => this.entries.get(name)?.def.type;

  /**
   * Records one sample (or `times` samples of one value: merge-results reading per-second aggregates) into the metric's
   * sink and every submetric whose tags the sample carries.
   */
  add(name: string, value: number, tags: Tags, time: number = Date.now(), times = 1): void {
    const entry = this.entries.get(name);
    if (entry === undefined) throw new Error(`metric ${name} is not defined`);
    entry.touched = true;
    entry.sink.add(value, time, times);
    for (const sub of entry.subs) {
      let match = true;
      for (const [k, v] of sub.def.tags) {
        if (tags[k] !== v) {
          match = false;
          break;
        }
      }
      if (match) sub.sink.add(value, time, times);
    }
    this.listener?.(entry.def, value, tags, time);
  }

  defs(): MetricDef[] {
    return [...this.entries.values()].map((e) => e.def);
  }

  submetricsOf(name: string): SubmetricDef[] {
    return this.entries.get(name)?.subs.map((s) => s.def) ?? [];
  }

  /** Metrics that received samples, each with its sink; submetrics follow their parent. */
  *touched(): Generator<{ name: string; def: MetricDef; sink: Sink; sub?: SubmetricDef }> {
    for (const e of this.entries.values()) {
      if (!e.touched) continue;
      yield { name: e.def.name, def: e.def, sink: e.sink };
      for (const s of e.subs) yield { name: s.def.name, def: e.def, sink: s.sink, sub: s.def };
    }
  }

  /** The sink of a metric or of a submetric by its summary name. */
  sinkOf(name: string): Sink | undefined {
    const direct = this.entries.get(name);
    if (direct !== undefined) return direct.sink;
    const brace = name.indexOf('{');
    if (brace < 0) return undefined;
    return this.entries.get(name.slice(0, brace))?.subs.find((s) => s.def.name === name)?.sink;
  }

  toState(): StoreState {
    return {
      metrics: [...this.entries.values()].map((e) => ({
        def: e.def,
        touched: e.touched,
        sink: e.sink.toState(),
        subs: e.subs.map((s) => ({ name: s.def.name, sink: s.sink.toState() })),
      })),
    };
  }

  /** Adds another store's samples (a worker's state) exactly. */
  mergeState(state: StoreState): void {
    for (const m of state.metrics) {
      if (!this.entries.has(m.def.name)) this.define(m.def);
      const entry = this.entries.get(m.def.name) as Entry;
      if (m.touched) entry.touched = true;
      entry.sink.merge(sinkFromState(m.sink));
      for (const s of m.subs) entry.subs.find((x) => x.def.name === s.name)?.sink.merge(sinkFromState(s.sink));
    }
  }
}
