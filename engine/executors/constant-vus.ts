// k6's constant-vus executor (lib/executor/constant_vus.go): a fixed number of VUs loop for a duration, then
// gracefulStop lets running iterations finish.
import { describeFacts, type ScenarioBase } from './config.ts';
import type { Executor } from './executor.ts';
import { finish, initMany, Running } from './running.ts';
import { shareOf } from './schedule.ts';
import { vusShare } from './segment-share.ts';
import { formatDuration } from '../durations.ts';

export type ConstantVUsConfig = ScenarioBase & { executor: 'constant-vus'; vus: number; durationMs: number };

export const constantVUs: Executor<ConstantVUsConfig> = {
  name: 'constant-vus',
  parse: (fields, base) => ({
    ...base,
    executor: 'constant-vus',
    vus: fields.atLeastOne('vus'),
    durationMs: fields.positiveDuration('duration'),
  }),
  describe: (c) => `${c.vus} looping VUs for ${formatDuration(c.durationMs)}${describeFacts(c)}`,
  durationMs: (c) => c.durationMs,
  maxVUs: (c) => c.vus,
  endsAfterIterations: false,
  iterationBound: () => undefined,
  share: (c, tuple) => vusShare(c.vus, tuple),
  plannedVUs: (c, seg, share) => shareOf(share.vus(c.vus), seg),
  async run(c, seg, host, share) {
    const vus = await initMany(host, c, shareOf(share.vus(c.vus), seg));
    const end = host.now() + c.durationMs;
    const running = new Running(host, c);
    host.activeVUs(vus.length);
    const loops = Promise.all(
      vus.map(async (vu) => {
        while (!host.signal.aborted && host.now() < end && running.open) await running.start(vu);
      }),
    );
    await finish(host, running, loops, end, c.gracefulStopMs);
    host.activeVUs(-vus.length);
  },
};
