// What a run's VUs will take in memory, from per-VU figures measured on both engines, so `--vus 100000` is refused
// with the memory it would need (instead of a 0% progress bar and GBs taken) and a large but possible run is warned.
import { HarnessError } from '../../api/errors.ts';
import { PROFILES, type ProfileName } from '../profiles.ts';

/**
 * Memory per VU (MB), measured with catalog-browse (the setup hands every VU the target's catalog), 3 s of constant
 * VUs against a stand-alone sandbox, peak RSS sampled every 200 ms (see load/README.md, "VU memory"):
 * k6 v0.48.0 1 VU 475 MB, 1,000 VUs 2,282 MB (1.8 MB a VU); k6 v2.2.0 69 MB → 1,414 MB (1.35 MB); the Node engine
 * 466 MB → 900 MB (0.43 MB). Rounded up, so an estimate errs on the side of the machine.
 */
export const VU_MEMORY_MB = Object.freeze({ k6: 2, node: 0.5 });

/** Above this estimate (MB) a run says up front what it will take. */
export const WARN_ABOVE_MB = 1024;

/** The most of the machine's memory a run's VUs may be planned to take; past it the run is refused (exit 2). */
export const MAX_SHARE_OF_MEMORY = 0.75;

/** The most VUs the run may have: --vus, else the profile's own (its VU count or its arrival pool's maxVUs). */
export function runVus(profile: ProfileName, vus: number | undefined): number {
  if (vus !== undefined) return vus;
  const shape = PROFILES[profile].shape;
  return shape.kind === 'iterations' ? shape.vus : shape.maxVUs;
}

function gb(mb: number): string {
  return mb >= 1024 ? `${(mb / 1024).toFixed(1)} GB` : `${Math.round(mb)} MB`;
}

/**
 * Refuses (GH_ERR_USAGE) a VU count whose estimated memory exceeds MAX_SHARE_OF_MEMORY of `totalBytes`; returns the
 * warning to print when the estimate is above WARN_ABOVE_MB, else undefined.
 */
export function checkVuMemory(engine: 'k6' | 'node', vus: number, totalBytes: number): string | undefined {
  const perVu = VU_MEMORY_MB[engine];
  const needMb = vus * perVu;
  const totalMb = totalBytes / 1024 / 1024;
  const who = engine === 'k6' ? 'k6' : 'the Node engine';
  if (needMb > totalMb * MAX_SHARE_OF_MEMORY) {
    const fit = Math.max(1, Math.floor((totalMb * MAX_SHARE_OF_MEMORY) / perVu));
    throw new HarnessError(
      'GH_ERR_USAGE',
      `--vus ${vus}: ${who} needs about ${gb(needMb)} for that many VUs (${perVu} MB each, measured), and this machine has ${gb(totalMb)}: use at most ${fit} VUs here, or spread the run over several machines (gateway-harness k6-operator)`,
    );
  }
  if (needMb > WARN_ABOVE_MB)
    return `load: up to ${vus} VUs on ${who} take about ${gb(needMb)} of memory (${perVu} MB each, measured); starting them takes a while`;
  return undefined;
}
