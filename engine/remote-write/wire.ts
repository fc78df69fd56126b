// The remote-write wire format: a WriteRequest encoded with protobufjs from Prometheus' own message definitions
// (prompb.proto beside this file) and compressed with snappy's block format, as Prometheus' receiver expects.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { compressSync, uncompressSync } from 'snappy';

export interface PromLabel {
  readonly name: string;
  readonly value: string;
}

export interface PromSample {
  readonly value: number;
  /** Epoch milliseconds. */
  readonly timestamp: number;
}

export interface PromBucketSpan {
  readonly offset: number;
  readonly length: number;
}

/** A native histogram with integer counts, as Prometheus' client library produces it (delta-encoded buckets). */
export interface PromHistogram {
  readonly countInt: number;
  readonly sum: number;
  readonly schema: number;
  readonly zeroThreshold: number;
  readonly zeroCountInt: number;
  readonly negativeSpans: readonly PromBucketSpan[];
  readonly negativeDeltas: readonly number[];
  readonly positiveSpans: readonly PromBucketSpan[];
  readonly positiveDeltas: readonly number[];
  readonly timestamp: number;
}

export interface PromTimeSeries {
  /** Sorted by name, `__name__` among them (the remote-write spec asks for sorted labels). */
  readonly labels: readonly PromLabel[];
  readonly samples?: readonly PromSample[];
  readonly histograms?: readonly PromHistogram[];
}

/**
 * Prometheus' stale marker is a NaN with exact bits (0x7ff0000000000002) that a JS number cannot be trusted to keep:
 * V8 may quieten a signalling NaN on the way to the encoder, and Prometheus would store a plain NaN. Stale samples
 * carry this finite stand-in instead (its bytes F8…FE are never UTF-8, so no label text can hold them), and the
 * encoded bytes of every sample value equal to it are replaced by the marker's.
 */
export const STALE_PLACEHOLDER = new Float64Array(new BigUint64Array([0x80fefdfcfbfaf9f8n]).buffer)[0] as number;
const PLACEHOLDER_BYTES = Buffer.from(new Float64Array([STALE_PLACEHOLDER]).buffer);
const STALE_BYTES = Buffer.from(new BigUint64Array([0x7ff0000000000002n]).buffer);
/** The tag byte of Sample.value (field 1, 64-bit). */
const SAMPLE_VALUE_TAG = 0x09;

function markStale(bytes: Uint8Array): Uint8Array {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = buffer.indexOf(PLACEHOLDER_BYTES);
  while (at >= 0) {
    if (at > 0 && buffer[at - 1] === SAMPLE_VALUE_TAG) STALE_BYTES.copy(buffer, at);
    at = buffer.indexOf(PLACEHOLDER_BYTES, at + PLACEHOLDER_BYTES.length);
  }
  return bytes;
}

const root = protobuf.parse(readFileSync(new URL('./prompb.proto', import.meta.url), 'utf8'), { keepCase: false }).root;
const WriteRequest = root.lookupType('prometheus.WriteRequest');

/** The protobuf bytes of one WriteRequest (uncompressed). */
export function encodeWriteRequest(timeseries: readonly PromTimeSeries[]): Uint8Array {
  return markStale(WriteRequest.encode(WriteRequest.fromObject({ timeseries })).finish());
}

/** The body of a push: the WriteRequest, snappy-compressed (block format). */
export function writeRequestBody(timeseries: readonly PromTimeSeries[]): Buffer {
  return compressSync(encodeWriteRequest(timeseries));
}

/** Decodes a push body back into plain objects (tests read what the engine sent). */
export function decodeWriteRequestBody(body: Uint8Array): { timeseries: PromTimeSeries[] } {
  const raw = uncompressSync(body, { asBuffer: true }) as Buffer;
  const message = WriteRequest.decode(raw);
  return WriteRequest.toObject(message, { longs: Number, defaults: false, arrays: true }) as { timeseries: PromTimeSeries[] };
}
