// k6's ramping-vus executor (lib/executor/ramping_vus.go): the number of looping VUs follows stages linearly; a VU
// ramped down mid-iteration gets gracefulRampDown to finish, and the end gets gracefulStop.
import { DEFAULT_GRACEFUL_STOP, describeFacts, type ScenarioBase, type Stage } from './config.ts';
import type { Executor } from './executor.ts';
import { finish, initMany, Running, waitUntil } from './running.ts';
import { rampingMaxVUs, rampingVUsAt, shareOf, stagesDurationMs } from './schedule.ts';
import { vusShare } from './segment-share.ts';
import { formatDuration } from '../durations.ts';

export type RampingVUsConfig = ScenarioBase & { executor: 'ramping-vus'; startVUs: number; stages: Stage[]; gracefulRampDownMs: number };

export const rampingVUs: Executor<RampingVUsConfig> = {
  name: 'ramping-vus',
  parse: (fields, base) => ({
    ...base,
    executor: 'ramping-vus',
    startVUs: fields.int('startVUs', 1),
    stages: fields.stages('stages', 'vus'),
    gracefulRampDownMs: fields.dur('gracefulRampDown', DEFAULT_GRACEFUL_STOP),
  }),
  describe: (c) =>
    `Up to ${rampingMaxVUs(c.startVUs, c.stages)} looping VUs for ${formatDuration(stagesDurationMs(c.stages))} over ${c.stages.length} stages` +
    describeFacts(c, `gracefulRampDown: ${formatDuration(c.gracefulRampDownMs)}`),
  durationMs: (c) => stagesDurationMs(c.stages),
  maxVUs: (c) => rampingMaxVUs(c.startVUs, c.stages),
  endsAfterIterations: false,
  iterationBound: () => undefined,
  share: (c, tuple) => vusShare(rampingMaxVUs(c.startVUs, c.stages), tuple),
  plannedVUs: (c, seg, share) => shareOf(share.vus(rampingMaxVUs(c.startVUs, c.stages)), seg),
  async run(c, seg, host, share) {
    const vus = await initMany(host, c, rampingVUs.plannedVUs(c, seg, share));
    const start = host.now();
    const end = start + stagesDurationMs(c.stages);
    const running = new Running(host, c);
    // The instance runs its stripe of the test-wide target (k6's getRawExecutionSteps), the worker its stripe of that.
    const targetAt = (t: number): number => shareOf(share.vus(rampingVUsAt(c.startVUs, c.stages, t - start)), seg);
    let active = 0;
    /** When a VU was deactivated while in an iteration: interrupt it after gracefulRampDown. */
    const rampDownDeadline = new Map<number, number>();
    const setActive = (n: number): void => {
      if (n !== active) host.activeVUs(n - active);
      active = n;
    };
    setActive(targetAt(host.now()));
    const loops = vus.map(async (vu, n) => {
      // The n-th VU of the segment runs while the segment's share of the target count includes it. No `running.open`
      // test needed here: the stop begins only after the controller saw the clock pass `end`.
      while (!host.signal.aborted && host.now() < end) {
        if (n >= active) {
          await waitUntil(host, Math.min(end, host.now() + 10));
          continue;
        }
        await running.start(vu);
      }
    });
    // The controller: recompute the target every 10 ms; a VU ramped down mid-iteration gets gracefulRampDown to finish.
    const controller = (async () => {
      while (!host.signal.aborted && host.now() < end) {
        const target = targetAt(host.now());
        if (target < active) {
          for (let n = target; n < active; n++) {
            if (running.isRunning(vus[n] as (typeof vus)[number]) && !rampDownDeadline.has(n))
              rampDownDeadline.set(n, host.now() + c.gracefulRampDownMs);
          }
        }
        setActive(target);
        for (const [n, deadline] of rampDownDeadline) {
          const vu = vus[n] as (typeof vus)[number];
          if (n < active || !running.isRunning(vu)) rampDownDeadline.delete(n);
          else if (host.now() >= deadline) {
            host.interrupt(vu);
            rampDownDeadline.delete(n);
          }
        }
        await waitUntil(host, Math.min(end, host.now() + 10));
      }
    })();
    await controller;
    await finish(host, running, Promise.all(loops), end, c.gracefulStopMs);
    setActive(0);
  },
};
