// The load flags that several commands share (`load`, `k6-operator`, `merge-results`), declared once: spelling, value,
// default and meaning. A command takes the rows it has, in its own order, and may narrow a row's words for itself.
import type { Command } from 'commander';
import { PROFILE_NAMES } from '../load/profiles.ts';
import { SCENARIO_NAMES } from '../load/scenarios.ts';

type LoadFlagName = 'scenario' | 'profile' | 'api' | 'vus' | 'duration' | 'rate' | 'threshold';

interface LoadFlagRow {
  readonly flags: string;
  readonly help: string;
  readonly defaultValue?: string;
  /** Repeatable: the values collected in a list. */
  readonly repeatable?: boolean;
}

const LOAD_FLAGS: Readonly<Record<LoadFlagName, LoadFlagRow>> = {
  scenario: { flags: '--scenario <name>', help: `one of ${SCENARIO_NAMES.join(', ')}` },
  profile: { flags: '--profile <name>', help: `one of ${PROFILE_NAMES.join(', ')}`, defaultValue: 'smoke' },
  api: { flags: '--api <version>', help: 'v1, v2 or both', defaultValue: 'both' },
  vus: { flags: '-u, --vus <n>', help: 'VUs (smoke) or the VU pool (arrival-rate profiles)' },
  duration: {
    flags: '-d, --duration <d>',
    help: 'k6 duration, e.g. 90s or 5m: smoke runs constant VUs that long (with -i: at most that long); other profiles stretch their shape to it',
  },
  rate: {
    flags: '--rate <r>',
    help: 'iterations per second at the top of an arrival-rate profile (load, stress, spike, soak, breakpoint)',
  },
  threshold: {
    flags: '--threshold <metric:expr>',
    help: "replace a metric's thresholds, e.g. 'http_req_duration{operation:v2.catalog.skus}:p(95)<300' (repeatable)",
    repeatable: true,
  },
};

/** How a command uses a row: as declared (true), or with its own words and (false: none) default. */
type LoadFlagUse = true | { readonly help?: string; readonly defaultValue?: string | false };

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Adds the named rows to `cmd`, in the order given. */
export function addLoadFlags(cmd: Command, uses: Partial<Record<LoadFlagName, LoadFlagUse>>): Command {
  for (const [name, use] of Object.entries(uses) as Array<[LoadFlagName, LoadFlagUse]>) {
    const row = LOAD_FLAGS[name];
    const help = use === true ? row.help : (use.help ?? row.help);
    const defaultValue = use === true || use.defaultValue === undefined ? row.defaultValue : use.defaultValue || undefined;
    if (row.repeatable === true) cmd.option(row.flags, help, collect);
    else if (defaultValue === undefined) cmd.option(row.flags, help);
    else cmd.option(row.flags, help, defaultValue);
  }
  return cmd;
}
