// The production guard: the one decision, for every command and both engines, whether charging requests may be sent
// at all. Decided from the catalog's `charges` flags before anything is sent. Runtime-neutral (the bundles refuse in init).
import { HarnessError } from '../api/errors.ts';
import type { Operation } from '../api/operations.ts';
import type { Environment } from '../api/target-config.ts';
import { formatMoney, type MoneySettings } from './money-settings.ts';

/** How the user allows charges: the same words in every refusal, help text and README. */
export const ALLOWANCE_HINT = 'add --allow-charges --max-spend AMOUNT CURRENCY to allow them up to a cap, or --dry-run to see the plan';

/**
 * Spec: "Production: real transactions are executed and the agent's account is charged." A command whose plan sends
 * charging operations to a production target is refused unless the user allowed charges with a spend cap.
 * `what` names the plan in the user's words ("load topup-flow", "migrate"). Returns the one-line reason, or undefined.
 */
export function chargingRefusal(
  what: string,
  charging: readonly Operation[],
  settings: Pick<MoneySettings, 'environment' | 'allowCharges' | 'cap'>,
): string | undefined {
  if (settings.environment !== 'production' || charging.length === 0) return undefined;
  if (settings.allowCharges && settings.cap !== undefined) return undefined;
  const ids = [...new Set(charging.map((op) => op.id))];
  const shown = ids.slice(0, 3).join(', ') + (ids.length > 3 ? ` and ${ids.length - 3} more` : '');
  return `${what} sends charging operations (${shown}) and the target is production (GATEWAY_ENV/--target-env/config): refused, nothing was sent; ${ALLOWANCE_HINT}`;
}

/** Throws GH_ERR_CHARGES (exit 2) when the plan must not run; the guard every command calls before it starts anything. */
export function assertChargesAllowed(
  what: string,
  charging: readonly Operation[],
  settings: Pick<MoneySettings, 'environment' | 'allowCharges' | 'cap'>,
): void {
  const refusal = chargingRefusal(what, charging, settings);
  if (refusal !== undefined) throw new HarnessError('GH_ERR_CHARGES', refusal);
}

/** A module the bundler names (k6/http); any other entry of a script's list is a load it cannot verify (see rawSources). */
const NAMED_MODULE = /^k6\/[\w./-]+$/;

/**
 * What a script loads past the harness client: the k6 modules that send it imports by name, and the requires or imports
 * whose module it computes at run time (`require("k6/" + x) in flow.js`, listed by the bundler, esbuild.config.mjs):
 * those cannot be verified, so they count as k6/http.
 */
function rawSources(modules: readonly string[]): string {
  const named = modules.filter((m) => NAMED_MODULE.test(m));
  const computed = modules.filter((m) => !NAMED_MODULE.test(m));
  return [
    ...(named.length === 0 ? [] : [`imports ${named.join(', ')} itself`]),
    ...(computed.length === 0
      ? []
      : [`loads a module named at run time (${computed.join('; ')}), which cannot be verified, so it counts as k6/http`]),
  ].join(' and ');
}

/**
 * A user script whose own files import a k6 module that sends (k6/http, ...), or a module whose name they compute at run
 * time, can charge past the harness client, so past the ledger, whatever it declared. Against production: the refusal
 * line (the CLI says it before bundling; the bundle itself says it in init, for a bare `k6 run`). Elsewhere undefined:
 * rawNetworkNote says it.
 */
export function rawNetworkRefusal(script: string, modules: readonly string[], environment: Environment): string | undefined {
  if (modules.length === 0 || environment !== 'production') return undefined;
  return `script ${script} ${rawSources(modules)}: a request sent that way could charge unrecorded; against production a script sends through the harness client (ctx.client, read, submit) only`;
}

/** The same script against a sandbox: runs, with this line (its raw requests have no money guard or envelope metrics). */
export function rawNetworkNote(script: string, modules: readonly string[]): string | undefined {
  if (modules.length === 0) return undefined;
  return `script ${script} ${rawSources(modules)}: requests sent that way have no money guard, ledger or envelope-aware metrics (production refuses such a script)`;
}

/** One line saying what the guard allows, for the start of a run's output. */
export function allowanceLine(settings: MoneySettings): string | undefined {
  if (settings.environment !== 'production') return settings.ledger ? 'money: sandbox target, ledger kept (--ledger)' : undefined;
  if (settings.cap === undefined) return 'money: production target, no charging request allowed';
  return `money: production target, charging requests allowed up to ${formatMoney(settings.cap.amount, settings.cap.currency)} (--max-spend); every one is in the ledger before it is sent`;
}
