// The load's own reads after the engine (the money session's reconcile of unresolved charges) are requests the target
// served: a fault among their answers is counted in the report with the VUs' (summary.json `faults`), not dropped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { answer503, startRelay, type Relay } from '../../scripts/fixtures/relay.ts';
import { forward } from '../../scripts/fixtures/silent-after-preflight.ts';
import { runLoadReported } from '../fixtures/load-run.ts';
import { parseLoadFlags } from './load-options.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-harness-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A relay that leaves every charge's outcome unknown (relayed, its answer replaced by a reset), answers every
 * transaction status read HTTP 503 (counted) and relays everything else.
 */
async function statusRefusingRelay(upstream: string): Promise<Relay & { refused(): number }> {
  let refused = 0;
  const relay = await startRelay(upstream, (request, response, body) => {
    if (request.method === 'POST') {
      const sink = Object.assign(Object.create(response) as typeof response, {
        writeHead: () => sink,
        end: () => response.socket?.destroy(),
      });
      forward(upstream, request, sink, body).catch(() => response.destroy());
      return true;
    }
    if (!/\/transaction\/status\//.test(request.url ?? '')) return false;
    refused += 1;
    return answer503(response);
  });
  return { ...relay, refused: () => refused };
}

it("the reconcile's status reads after the engine: their HTTP 5xx are counted with the VUs'", async () => {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, funds: 1_000_000 });
  const relay = await statusRefusingRelay(sandbox.url);
  try {
    const reportDir = join(dir, 'run');
    const flags = parseLoadFlags({
      scenario: 'topup-flow',
      profile: 'smoke',
      engine: 'node',
      api: 'v2',
      vus: '1',
      iterations: '2',
      reportDir,
    });
    const config = loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: relay.url, GATEWAY_TIME_SCALE: '0.01' } });
    const outcome = await runLoadReported(
      flags,
      config,
      { cwd: dir, env: { ...process.env } },
      { environment: 'sandbox', allowCharges: false, ledger: true },
    );
    // Every charge stayed unresolved (no status read was answered), so the money session read their statuses again.
    expect(outcome.report.ledger?.unresolved.length, outcome.output()).toBeGreaterThan(0);
    expect(relay.refused(), 'no status read was refused: the run proves nothing').toBeGreaterThan(0);
    expect(outcome.report.faults?.['server-error'], outcome.output()).toBe(relay.refused());
  } finally {
    await relay.close();
    await sandbox.close();
  }
}, 240_000);
