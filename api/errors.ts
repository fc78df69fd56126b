// Harness errors with stable codes, so reports, baselines and exit codes match on codes rather than on text.
// Runtime-neutral: thrown by the client core, config and CLI alike.

export type HarnessErrorCode =
  | 'GH_ERR_CONFIG'
  | 'GH_ERR_USAGE'
  | 'GH_ERR_TIMEOUT'
  | 'GH_ERR_CONNECTION'
  | 'GH_ERR_PARSE'
  | 'GH_ERR_UNKNOWN_OPERATION'
  | 'GH_ERR_PARAM'
  | 'GH_ERR_TARGET'
  /** A charging request refused before anything was sent: production without --allow-charges --max-spend (exit 2). */
  | 'GH_ERR_CHARGES'
  /** One charging request not sent: the spend cap would be crossed, or its charge cannot be bounded (ledger/). */
  | 'GH_ERR_SPEND_CAP'
  /** The ledger line of a charging request could not be made durable: the request was not sent. */
  | 'GH_ERR_LEDGER'
  /** A file of the run could not be written: no space left on its device (ENOSPC, EDQUOT); said with the path (exit 1). */
  | 'GH_ERR_DISK_FULL'
  /** The wallet's available funds cannot cover the run's plan: stopped before the first charge (exit 2, ledger/funds.ts). */
  | 'GH_ERR_FUNDS'
  | 'GH_ERR_INTERNAL';

/** Exit codes of the interface contract (DESIGN.md). */
export const EXIT = Object.freeze({ ok: 0, checkFailed: 1, usage: 2, thresholds: 99 } as const);

export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  /** Process exit code when this error ends a command. */
  readonly exitCode: number;

  constructor(code: HarnessErrorCode, message: string, options?: { exitCode?: number; cause?: unknown }) {
    super(message);
    // Set by hand: the two-argument Error constructor is ES2022, and k6 v0.48 runs ES2019.
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause, configurable: true, writable: true });
    this.name = 'HarnessError';
    this.code = code;
    this.exitCode =
      options?.exitCode ??
      (code === 'GH_ERR_CONFIG' || code === 'GH_ERR_USAGE' || code === 'GH_ERR_CHARGES' || code === 'GH_ERR_FUNDS'
        ? EXIT.usage
        : EXIT.checkFailed);
  }
}

/** ENOSPC or EDQUOT: the device (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The one wording of a full disk, naming where: `disk full at <path> (<what was not written>)`. */
export function diskFullError(path: string, what: string, cause: unknown): HarnessError {
  return new HarnessError('GH_ERR_DISK_FULL', `disk full at ${path} (${what})`, { cause });
}

/** A file's JSON text parsed, or GH_ERR_PARSE in the one wording: `<what> is not JSON: <the parser's reason>`. */
export function parseJsonFile(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HarnessError('GH_ERR_PARSE', `${what} is not JSON: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

export function isHarnessError(value: unknown): value is HarnessError {
  return value instanceof HarnessError;
}
