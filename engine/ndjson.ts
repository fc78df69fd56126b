// k6's JSON output (`--out json=FILE`, k6 output/json): one `Metric` line the first time a metric appears, then one
// `Point` line per sample with its tags sorted by name. Workers format points; the controller writes the file.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createGzip, type Gzip } from 'node:zlib';
import { diskFullError, isDiskFull } from '../api/errors.ts';
import type { MetricDef, SubmetricDef, Tags } from './metrics/store.ts';

/** One `Point` line (no newline). */
export function pointLine(metric: string, value: number, tags: Tags, time: number): string {
  const keys = Object.keys(tags).sort();
  let t = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    t += `${i === 0 ? '' : ','}${JSON.stringify(k)}:${JSON.stringify(tags[k])}`;
  }
  t += '}';
  return `{"metric":${JSON.stringify(metric)},"type":"Point","data":{"time":"${new Date(time).toISOString()}","value":${Number.isFinite(value) ? value : 0},"tags":${t}}}`;
}

/** The `Metric` line describing a metric, its thresholds and submetrics. */
export function metricLine(def: MetricDef, thresholds: string[], submetrics: SubmetricDef[]): string {
  const subs =
    submetrics.length === 0 ? null : submetrics.map((s) => ({ name: s.name, suffix: s.suffix, tags: Object.fromEntries(s.tags) }));
  return JSON.stringify({
    type: 'Metric',
    data: { name: def.name, type: def.type, contains: def.contains, thresholds, submetrics: subs },
    metric: def.name,
  });
}

/**
 * Writes NDJSON to a file (gzip when the name ends in .gz), Metric lines on first sight of each metric; or hands the
 * same text to a function (the load runner keeps it as per-second aggregates, reports/metric-aggregates.ts).
 */
export class NdjsonWriter {
  private readonly out: WriteStream | undefined;
  private readonly gzip: Gzip | undefined;
  private readonly seen = new Set<string>();
  /** The first write error (a full disk, /dev/full): writing stops there, and close() rejects with it. */
  private failed: Error | undefined;

  constructor(
    private readonly target: string | ((text: string) => void),
    private readonly describe: (name: string) => string | undefined,
  ) {
    if (typeof target !== 'string') return;
    mkdirSync(dirname(target), { recursive: true });
    this.out = createWriteStream(target);
    this.out.on('error', (error) => this.fail(error));
    if (target.endsWith('.gz')) {
      this.gzip = createGzip();
      this.gzip.on('error', (error) => this.fail(error));
      this.gzip.pipe(this.out);
    }
  }

  private fail(error: Error): void {
    this.failed ??= isDiskFull(error) ? diskFullError(String(this.target), 'the metric stream is cut short', error) : error;
  }

  private write(text: string): void {
    if (typeof this.target !== 'string') this.target(text);
    else if (this.failed === undefined) (this.gzip ?? this.out)?.write(text);
  }

  /** Writes the Metric lines of names not seen yet, then the points. */
  writeChunk(metricNames: readonly string[], points: string): void {
    let header = '';
    for (const name of metricNames) {
      if (this.seen.has(name)) continue;
      this.seen.add(name);
      const line = this.describe(name);
      if (line !== undefined) header += `${line}\n`;
    }
    if (header !== '') this.write(header);
    if (points !== '') this.write(points);
  }

  close(): Promise<void> {
    const out = this.out;
    if (out === undefined) return Promise.resolve();
    if (this.failed !== undefined) {
      out.destroy();
      return Promise.reject(this.failed);
    }
    return new Promise((resolveClose, reject) => {
      out.once('finish', () => (this.failed === undefined ? resolveClose() : reject(this.failed)));
      out.once('error', () => reject(this.failed));
      (this.gzip ?? out).end();
    });
  }
}

/** Collects point lines in a thread and hands them over in chunks (bounded memory, few messages). */
export class PointBuffer {
  private lines: string[] = [];
  private bytes = 0;
  private names = new Set<string>();

  constructor(
    private readonly flush: (metricNames: string[], points: string) => void,
    private readonly maxBytes = 1 << 20,
  ) {}

  add(metric: string, value: number, tags: Tags, time: number): void {
    const line = pointLine(metric, value, tags, time);
    this.lines.push(line);
    this.names.add(metric);
    this.bytes += line.length + 1;
    if (this.bytes >= this.maxBytes) this.drain();
  }

  drain(): void {
    if (this.lines.length === 0) return;
    const text = `${this.lines.join('\n')}\n`;
    const names = [...this.names];
    this.lines = [];
    this.names = new Set();
    this.bytes = 0;
    this.flush(names, text);
  }
}
