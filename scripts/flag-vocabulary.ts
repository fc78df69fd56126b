// One meaning per flag across the commands, in k6's words where k6 has one: the old spellings stay accepted for one
// release as hidden options that say so on stderr (one line each), and `-e/--env KEY=VALUE` means what it means to k6.
import { Option, type Command } from 'commander';
import { HarnessError } from '../api/errors.ts';
import { commandPath } from './help-examples.ts';

/** A hidden old spelling: what its value becomes and the note it prints. */
interface Deprecated {
  /** Attribute of the old option (commander's camelCase of its long flag). */
  readonly attribute: string;
  /** Applies the value given on the command line; returns the deprecation line, or undefined when none is due. */
  readonly apply: (cmd: Command, value: unknown) => string | undefined;
}

const DEPRECATED = new WeakMap<Command, Deprecated[]>();

/** The line every deprecated spelling prints on stderr. */
export function deprecationLine(old: string, advice: string): string {
  return `gateway-harness: deprecated: ${old} ${advice}; the old spelling goes in the next release`;
}

function attributeOf(flags: string): string {
  return new Option(flags).attributeName();
}

function register(cmd: Command, flags: string, apply: Deprecated['apply'], parse?: (value: string, previous: unknown) => unknown): void {
  const option = new Option(flags).hideHelp();
  if (parse !== undefined) option.argParser(parse);
  cmd.addOption(option);
  DEPRECATED.set(cmd, [...(DEPRECATED.get(cmd) ?? []), { attribute: option.attributeName(), apply }]);
}

/** `old` (e.g. '--profile <name>') is the previous spelling of the option whose long flag is `now`. */
export function renamedOption(cmd: Command, old: string, now: string): void {
  const into = attributeOf(`${now} <x>`);
  const oldName = old.split(/[ ,]/)[0] as string;
  register(cmd, old, (c, value) => {
    if (c.getOptionValue(into) === undefined || c.getOptionValueSource(into) === 'default') c.setOptionValue(into, value);
    return deprecationLine(oldName, `is now ${now}`);
  });
}

/** An old option that keeps its own narrower meaning for one release (e.g. --gen-seed next to the one --seed). */
export function narrowerOption(cmd: Command, flags: string, advice: string): void {
  register(cmd, flags, () => deprecationLine(flags.split(' ')[0] as string, advice));
}

/**
 * `--out` is k6's output destinations (`load -o json=FILE`) on every command. A command that writes a directory or a
 * file takes `now` (`--out-dir <dir>`, `--out-file <file>`); its old `--out X` is refused, one line naming the new flag,
 * never taken as the other meaning.
 */
export function outMovedTo(cmd: Command, now: '--out-dir' | '--out-file', what: string): void {
  register(cmd, '--out <value>', (c, value) => {
    throw new HarnessError(
      'GH_ERR_USAGE',
      `${commandPath(c)} --out ${String(value)}: --out means k6's outputs (load -o json=FILE) on every command; ${what} is ${now} ${String(value)}`,
    );
  });
}

function collect(value: string, previous: unknown): string[] {
  return [...(Array.isArray(previous) ? (previous as string[]) : []), value];
}

const ENV_VAR = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * `--env`: KEY=VALUE is k6's `--env` (a variable of the script's __ENV, on the commands that run one); a bare
 * sandbox|production is the old spelling of `--target-env`.
 */
export function envOption(cmd: Command): void {
  register(
    cmd,
    '--env <value>',
    (c, value) => {
      let line: string | undefined;
      for (const text of value as string[]) {
        if (ENV_VAR.test(text)) {
          if (!c.options.some((o) => o.long === '--env-var')) {
            throw new HarnessError(
              'GH_ERR_USAGE',
              `--env ${text.split('=')[0]}=...: ${c.name()} runs no k6 script (-e/--env KEY=VALUE applies to load); the target environment is --target-env sandbox|production`,
            );
          }
          c.setOptionValue('envVar', [...((c.getOptionValue('envVar') as string[] | undefined) ?? []), text]);
        } else {
          if (c.getOptionValue('targetEnv') === undefined) c.setOptionValue('targetEnv', text);
          line = deprecationLine(
            '--env sandbox|production',
            'is now --target-env (env GATEWAY_ENV); --env KEY=VALUE sets a script variable, as in k6',
          );
        }
      }
      return line;
    },
    collect,
  );
}

/** `-e, --env-var KEY=VALUE` (repeatable), k6's `-e`: a variable of the script's __ENV. */
export function addEnvVarOption(cmd: Command): Command {
  cmd.option(
    '-e, --env-var <KEY=VALUE>',
    "a variable of the script's __ENV, as k6 run -e (repeatable; --env KEY=VALUE works too)",
    collect,
  );
  envOption(cmd);
  return cmd;
}

/** The preAction hook: every deprecated spelling the command line used is applied and said, one line each. */
export function applyDeprecations(cmd: Command, warn: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): void {
  for (const entry of DEPRECATED.get(cmd) ?? []) {
    if (cmd.getOptionValueSource(entry.attribute) !== 'cli') continue;
    const line = entry.apply(cmd, cmd.getOptionValue(entry.attribute));
    if (line !== undefined) warn(line);
  }
}
