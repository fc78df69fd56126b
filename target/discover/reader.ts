// The one way discovery talks to its target: catalog reads through the request builder, and write-path probes (a
// catalog write sent to a candidate path), both on one Node transport, counted (requests and faults) so a run can bound
// itself and report what the target served to it.
import type { GatewayResponse } from '../../api/envelope.ts';
import { createFaultTally, createSilenceWatch, type FaultCounts } from '../../api/faults.ts';
import { buildRequest, type RequestInput } from '../../api/request-builder.ts';
import type { ResolvedTargetConfig } from '../../api/target-config.ts';
import { coreSettingsFor } from '../../client/gateway-client.ts';
import { createNodeTransport } from '../../client/node-transport.ts';
import { withRealTimeFloors } from '../session.ts';
import { DEFAULT_SETTINGS } from '../settings.ts';

export interface DiscoveryReader {
  read(operationId: string, input?: RequestInput): Promise<GatewayResponse>;
  /** The write `operationId` sent to `path` instead of its catalog path, with `body`. */
  probe(operationId: string, path: string, body: unknown): Promise<GatewayResponse>;
  /** Requests sent so far. */
  readonly sent: number;
  /** The answers so far that were no gateway answer, by kind (api/faults.ts): the run's report counts them too. */
  faults(): FaultCounts;
  close(): Promise<void>;
}

/** What discovery sent until it stopped, and the faults among the answers (the interrupted report counts them). */
export interface DiscoveryReads {
  readonly requests: number;
  readonly faults: FaultCounts;
}

/** Thrown into discovery once `stop` aborted (SIGINT/SIGTERM): nothing more is sent; the caller reports the interruption. */
export class DiscoveryStopped extends Error {
  constructor(readonly reads: DiscoveryReads) {
    super('discovery: interrupted');
    this.name = 'DiscoveryStopped';
  }
}

/** Sockets discovery uses; its parallel reads wait for one of them (not in the transport's queue) before they count. */
const CONNECTIONS = 8;

/** At most `size` holders at once; the others wait in order. */
function slotsOf(size: number): { take(): Promise<void>; give(): void } {
  let free = size;
  const waiting: Array<() => void> = [];
  return {
    take: () => (free > 0 ? ((free -= 1), Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve))),
    give: () => {
      const next = waiting.shift();
      if (next === undefined) free += 1;
      else next();
    },
  };
}

/**
 * `stop` (the run's signal watch) abandons the request in flight at once and sends nothing after it. A request is
 * counted once it has a socket of its own, so a stop leaves `sent` equal to what went to the target.
 */
export function createDiscoveryReader(config: ResolvedTargetConfig, stop?: AbortSignal): DiscoveryReader {
  const transport = createNodeTransport({ connections: CONNECTIONS });
  const slots = slotsOf(CONNECTIONS);
  // The session's real-time floors: at a time scale of 0.01 a 30 s timeout is 300 ms, too short for the whole catalog.
  const settings = coreSettingsFor(withRealTimeFloors(config, DEFAULT_SETTINGS));
  const options = {
    connectTimeoutMs: settings.timings.connectTimeoutMs,
    responseTimeoutMs: settings.timings.responseTimeoutMs,
    secrets: [config.password],
    ...(stop === undefined ? {} : { signal: stop }),
  };
  let sent = 0;
  const faults = createFaultTally();
  // A target that answered the preflight and then went silent stops the discovery after SILENT_READ_TIMEOUTS client
  // timeouts in a row (each a response timeout) instead of waiting out every read and probe.
  const silence = createSilenceWatch('discovery');
  const stopped = (): boolean => stop?.aborted === true;
  const halt = (): DiscoveryStopped => new DiscoveryStopped({ requests: sent, faults: faults.counts() });
  const send = async (operationId: string, input: RequestInput, writePaths: Readonly<Record<string, string>>): Promise<GatewayResponse> => {
    await slots.take();
    let response: GatewayResponse;
    try {
      silence.check();
      if (stopped()) throw halt();
      sent += 1;
      response = await transport.send(buildRequest(operationId, input, { ...settings.target, writePaths }), options);
    } finally {
      slots.give();
    }
    // A request the stop abandoned is no fault of the target's (api/faults.ts faultKindOf).
    faults.add(response);
    if (stopped()) throw halt();
    silence.see(response);
    return response;
  };
  return {
    read: (operationId, input = {}) => send(operationId, input, config.writePaths),
    probe: (operationId, path, body) => send(operationId, { body }, { [operationId]: path }),
    get sent() {
      return sent;
    },
    faults: () => faults.counts(),
    close: () => transport.close(),
  };
}

/** The records of a read's payload: an array's objects, or the one object; none when the answer is not a success. */
export function recordsOf(response: GatewayResponse): unknown[] {
  const envelope = response.envelope;
  if (response.httpStatus !== 200 || envelope === undefined || envelope.responseCode !== '000') return [];
  const payload = envelope.payLoad;
  if (Array.isArray(payload)) return payload.filter((item) => item !== null && typeof item === 'object' && !Array.isArray(item));
  return payload !== null && typeof payload === 'object' ? [payload] : [];
}
