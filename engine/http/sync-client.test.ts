// The synchronous HTTP helper's warm-up: the init phase waits until the helper thread listens, so setup()'s timeout
// times setup() alone (differential: engine/differential.test.ts, a failing teardown() beside a 1 s setupTimeout).
import { afterEach, describe, expect, it } from 'vitest';
import { SyncHttpClient, helperCode } from './sync-client.ts';

const realSource = helperCode();
const clients: SyncHttpClient[] = [];
afterEach(async () => {
  SyncHttpClient.useSource(realSource);
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(): SyncHttpClient {
  const c = new SyncHttpClient({ noConnectionReuse: false, maxRedirects: 10 });
  clients.push(c);
  return c;
}

describe('SyncHttpClient.warmUp', () => {
  it('resolves only once the helper thread is loaded and listening, not when it is started', async () => {
    // A helper whose loading takes at least 400 ms (as a busy machine makes it): the warm-up cannot end before.
    SyncHttpClient.useSource(`{ const until = Date.now() + 400; while (Date.now() < until); }\n${realSource}`);
    const started = performance.now();
    await client().warmUp();
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('rejects when the helper thread fails to load', async () => {
    SyncHttpClient.useSource(`throw new Error('helper broken on purpose');\n${realSource}`);
    await expect(client().warmUp()).rejects.toThrow('helper broken on purpose');
  });
});
