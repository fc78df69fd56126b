// The globals the k6 v0.48 type package leaves out: k6 (and the Node engine) provide `console` to scripts; and the
// constant the bundler defines in a user script's bundle (esbuild.config.mjs buildK6Script).
// Declared for the k6 side of load/ only (tsconfig.json); no DOM or Node library is pulled in for it.
declare const console: {
  log(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
};

/**
 * In a `load --script` bundle whose own files import a k6 module that sends (k6/http, ...) or compute a module's name at
 * run time: those modules and loads, defined by the bundler (esbuild `define`); not defined in any other bundle. The
 * bundle's init refuses production with it.
 */
declare const __GATEWAY_HARNESS_SCRIPT_NETWORK__: readonly string[] | undefined;
