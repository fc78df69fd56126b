// The one global the k6 v0.48 type package leaves out: k6 (and the Node engine) provide `console` to scripts.
// Declared for the k6 side of load/ only (tsconfig.json); no DOM or Node library is pulled in for it.
declare const console: {
  log(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
};
