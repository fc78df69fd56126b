// The GEN coverage table of conformance/README.md is the one coverage.ts derives from the keyword model: a new write
// or a schema change shows up there, or this fails (regenerate: paste coverageMarkdown()).
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { coverageMarkdown } from './coverage.ts';

test('conformance/README.md carries the derived GEN coverage table', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /<!-- gen-coverage:start -->\n([\s\S]*?)\n<!-- gen-coverage:end -->/.exec(readme)?.[1];
  expect(block).toBe(coverageMarkdown());
});
