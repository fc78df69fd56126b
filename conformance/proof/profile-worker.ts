// A worker process of the proof pool: runs the profiles its parent sends (a few side by side) and reports each outcome.
// Separate processes let the meta-test use every core; each run is still one sandbox + one client, as in a real run.
import { runPlanAgainst, type ProfileOutcome } from './profile-run.ts';
import { isGenJob, runGenJob } from '../gen/proof-job.ts';

export type WorkerRequest = { readonly type: 'run'; readonly profiles: readonly string[]; readonly parallel: number };
export type WorkerReply =
  | { readonly type: 'outcome'; readonly outcome: ProfileOutcome }
  | { readonly type: 'error'; readonly profile: string; readonly message: string }
  | { readonly type: 'done' };

function send(reply: WorkerReply): Promise<void> {
  return new Promise((resolve) => {
    if (process.send === undefined) return resolve();
    process.send(reply, () => resolve());
  });
}

async function runAll(profiles: readonly string[], parallel: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < profiles.length) {
      const profile = profiles[next++] as string;
      try {
        await send({ type: 'outcome', outcome: isGenJob(profile) ? await runGenJob(profile) : await runPlanAgainst(profile) });
      } catch (error) {
        await send({ type: 'error', profile, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, profiles.length)) }, lane));
  await send({ type: 'done' });
}

process.on('message', (message: WorkerRequest) => {
  if (message.type !== 'run') return;
  runAll(message.profiles, message.parallel).then(
    // Every outcome is delivered (send waits for it): nothing left to do, whatever handle a run may have left open.
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`proof worker: ${String(error)}\n`);
      process.exit(1);
    },
  );
});
