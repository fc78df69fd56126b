// The k6 transport: sends a built request with k6/http `asyncRequest` (awaited, so VUs stay async) and reports what it
// saw as a GatewayResponse through the shared parser and classifier. It tags every request by operation id and API version.
import http from 'k6/http';
import type { GatewayResponse } from '../api/envelope.ts';
import type { BuiltRequest } from '../api/request-builder.ts';
import type { SendOptions, Transport } from '../api/transport.ts';
import { fromK6Response, requestTags, type K6ResponseLike } from './k6-response.ts';

function authSecrets(built: BuiltRequest, extra: readonly string[] | undefined): string[] {
  const entry = Object.entries(built.headers).find(([name]) => name.toLowerCase() === 'authorization');
  const token = entry === undefined ? [] : [entry[1], entry[1].replace(/^\S+\s+/, '')];
  return [...token, ...(extra ?? [])].filter((s) => s !== '');
}

/**
 * The transport. k6 has one timeout per request covering connect, send and receive: it gets the response timeout
 * (the one that decides "Unknown"); the connect timeout has no k6 counterpart. Redirects are not followed, as in Node.
 */
export function createK6Transport(): Transport {
  return {
    async send(built: BuiltRequest, options: SendOptions): Promise<GatewayResponse> {
      const startedAt = Date.now();
      const res = await http.asyncRequest(built.method, built.url, built.body ?? null, {
        headers: built.headers,
        timeout: options.responseTimeoutMs,
        redirects: 0,
        responseType: 'text',
        tags: requestTags(built.operationId),
      });
      return fromK6Response(built, res as unknown as K6ResponseLike, startedAt, options.responseTimeoutMs, authSecrets(built, options.secrets));
    },
  };
}
