// A reproduction a person can paste: the request of a failed case (hand-written or GEN) as one `curl` line. Credentials
// are never values: Basic auth from the $GATEWAY_USER / $GATEWAY_PASSWORD placeholders, whatever the run used.

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** Headers the curl line sets itself (auth) or that curl derives (length, host). */
const LEFT_OUT = new Set(['authorization', 'content-length', 'host', 'connection']);

/** A request as reports and case results echo it (credentials already redacted; they are not used here anyway). */
export interface EchoedRequest {
  readonly operationId?: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export function curlLine(request: EchoedRequest): string {
  const parts = ['curl', '-sS', '-X', request.method, '-u', '"$GATEWAY_USER:$GATEWAY_PASSWORD"'];
  for (const [name, value] of Object.entries(request.headers)) {
    if (LEFT_OUT.has(name.toLowerCase())) continue;
    parts.push('-H', quote(`${name}: ${value}`));
  }
  if (request.body !== undefined)
    parts.push('--data-raw', quote(typeof request.body === 'string' ? request.body : JSON.stringify(request.body)));
  parts.push(quote(request.url));
  return parts.join(' ');
}
