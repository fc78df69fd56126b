// The preflight (api/preflight.ts) against a configured target from the Node side: the one check every command runs
// before its work (conformance, gate, load, baseline record, migrate, reconcile), on its own short-lived transport.
import { setTimeout as delay } from 'node:timers/promises';
import { HarnessError } from '../api/errors.ts';
import type { ApiVersion } from '../api/operations.ts';
import { preflight, type Preflight } from '../api/preflight.ts';
import { redactUrl } from '../api/redact.ts';
import { clientTimings } from '../api/scale.ts';
import type { ResolvedTargetConfig } from '../api/target-config.ts';
import { createNodeTransport } from './node-transport.ts';

type PreflightConfig = Pick<ResolvedTargetConfig, 'baseUrl' | 'user' | 'password' | 'writePaths' | 'timeScale' | 'timeouts' | 'poll'>;

/**
 * Runs the preflight against the config's target with the balance read of `version`; the transport is closed after.
 * `stop` (the command's signal watch) abandons it at once.
 */
export async function preflightTarget(config: PreflightConfig, version: ApiVersion, stop?: AbortSignal): Promise<Preflight> {
  const transport = createNodeTransport({ connections: 2 });
  try {
    return await preflight(
      {
        label: redactUrl(config.baseUrl),
        connection: { baseUrl: config.baseUrl, user: config.user, password: config.password, writePaths: config.writePaths },
        transport,
        connectTimeoutMs: clientTimings(config).connectTimeoutMs,
        notFoundCodes: config.poll.notFoundCodes,
        now: () => Date.now(),
        sleep: (ms) => delay(ms),
        ...(stop === undefined ? {} : { stop }),
      },
      version,
    );
  } finally {
    await transport.close();
  }
}

/** The preflight for commands that stop with one line: GH_ERR_TARGET, exit 2, naming the command and the reason. */
export async function assertTargetUsable(command: string, config: PreflightConfig, version: ApiVersion): Promise<void> {
  const check = await preflightTarget(config, version);
  if (!check.usable) throw new HarnessError('GH_ERR_TARGET', `${command}: the target cannot be used: ${check.reason}`, { exitCode: 2 });
}
