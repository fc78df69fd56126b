// The ajv options every standalone validator is compiled with: the wire schemas (scripts/gen.ts) and a baseline's
// learned schemas (drift/baseline-validators.ts, at bundle build time). One place, so both compile for k6 the same way.

/** DESIGN.md "What runs inside k6" explains the perf ones. */
export const AJV_OPTIONS = Object.freeze({
  strict: true,
  allErrors: true,
  // UTF-16 length instead of code points: ~10x faster in k6; every length limit in the spec is on ASCII ids/codes.
  unicode: false,
  // Patterns are ASCII-only; a `u` flag would only slow goja's regexp engine down.
  unicodeRegExp: false,
  // The spec's "string or null" fields are union types; strict mode rejects them unless allowed.
  allowUnionTypes: true,
  // No English message strings in the code: api/validation.ts words every issue from the keyword and its params.
  messages: false,
  code: { source: true, esm: true, lines: true },
});

interface Logger {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/**
 * ajv warns that `unicode` is deprecated, yet still honours it (limitLength reads it): the caller's console without
 * that one line. (This file is type-checked as runtime-neutral too, so the console comes in as a parameter.)
 */
export function quietAjvLogger(out: Logger): Logger {
  return {
    log: (...args) => out.log(...args),
    warn: (...args) => {
      if (typeof args[0] === 'string' && args[0].startsWith('DEPRECATED: option unicode')) return;
      out.warn(...args);
    },
    error: (...args) => out.error(...args),
  };
}
