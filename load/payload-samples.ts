// Samples of violating responses, out of the VUs and into the report: the first few per operation and JSON path, as
// one console line each (the only channel every runtime has from a VU to the runner), collected from the engine output.
import { sampleValue, type PayloadLayer, type PayloadViolation, type ViolationSeverity } from '../api/payload-checks.ts';

/** Samples kept per operation and path (per VU in the runtime; the runner keeps this many over all VUs). */
export const SAMPLES_PER_PATH = 3;
/** Sample lines one VU prints at most, whatever the number of paths. */
const SAMPLES_PER_VU = 60;
const MARKER = 'gateway-harness-payload-sample:';
const MAX_PENDING_CHARS = 1 << 16;
// encodeURIComponent's output alphabet: no quote, backslash or space, so the line survives k6's logfmt untouched.
const SAMPLE_LINE = /gateway-harness-payload-sample:([A-Za-z0-9%._~!*'()-]+)/g;

export interface PayloadSample {
  readonly operation: string;
  readonly path: string;
  readonly layer: PayloadLayer;
  readonly severity: ViolationSeverity;
  readonly message: string;
  /** The value at the violation, secret members redacted, truncated (api/payload-checks.ts sampleValue). */
  readonly received: string;
}

/** The text without its (whole) sample lines: they are for the report, not for people's consoles. */
export function withoutSampleLines(text: string): string {
  return text.includes(MARKER) ? text.replace(/[^\n]*gateway-harness-payload-sample:[^\n]*(\n|$)/g, '') : text;
}

/** Counts samples per operation and path; `take` says whether one more may be kept. */
export class SampleBudget {
  private readonly taken = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly perPath = SAMPLES_PER_PATH,
    private readonly max = SAMPLES_PER_VU,
  ) {}

  take(operation: string, path: string): boolean {
    const key = `${operation} ${path}`;
    const count = this.taken.get(key) ?? 0;
    if (count >= this.perPath || this.total >= this.max) return false;
    this.taken.set(key, count + 1);
    this.total += 1;
    return true;
  }
}

export function sampleLine(operation: string, violation: PayloadViolation, body: unknown): string {
  const sample: PayloadSample = {
    operation,
    path: violation.path,
    layer: violation.layer,
    severity: violation.severity,
    message: violation.message.slice(0, 300),
    received: sampleValue(body, violation),
  };
  return `${MARKER}${encodeURIComponent(JSON.stringify(sample))}`;
}

function isSample(value: unknown): value is PayloadSample {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return ['operation', 'path', 'layer', 'severity', 'message', 'received'].every((key) => typeof v[key] === 'string');
}

/** Collects sample lines from engine output (any chunking), keeping the first SAMPLES_PER_PATH per operation and path. */
export class SampleCollector {
  private pending = '';
  private readonly budget = new SampleBudget(SAMPLES_PER_PATH, Number.POSITIVE_INFINITY);
  readonly samples: PayloadSample[] = [];

  /** Feeds a chunk of engine output (any chunking: lines are put together first). */
  write(chunk: string): void {
    const text = this.pending + chunk;
    const end = text.lastIndexOf('\n');
    this.pending = end < 0 ? text : text.slice(end + 1);
    // A console that never ends a line (a progress bar redrawn with \r) must not grow this without bound.
    if (this.pending.length > MAX_PENDING_CHARS) this.pending = '';
    if (end < 0 || !text.includes(MARKER)) return;
    // exec in a loop, not matchAll: the k6 side of this room compiles against ES2019.
    const lines = text.slice(0, end);
    SAMPLE_LINE.lastIndex = 0;
    for (let match = SAMPLE_LINE.exec(lines); match !== null; match = SAMPLE_LINE.exec(lines)) this.add(match[1] as string);
  }

  /** The last line, when the output did not end with a newline. */
  flush(): void {
    if (this.pending !== '') this.write('\n');
  }

  private add(encoded: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeURIComponent(encoded));
    } catch {
      return;
    }
    if (isSample(parsed) && this.budget.take(parsed.operation, parsed.path)) this.samples.push(parsed);
  }
}
