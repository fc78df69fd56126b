// Keeps the operation coverage table of docs/reference.md honest: one row per catalog operation, and the committed page current.
// The table is generated from api/operations.ts, so a new operation shows up in the docs with no hand edit.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../api/operations.ts';
import { END_MARKER, START_MARKER, renderCoverageTable, withCoverageTable } from './coverage-table.ts';

describe('README coverage table', () => {
  it('has one row per catalog operation, marking assumed paths and charging operations', () => {
    const table = renderCoverageTable();
    for (const op of OPERATIONS) {
      const line = table.split('\n').find((l) => l.startsWith(`| \`${op.id}\` |`));
      expect(line, op.id).toBeDefined();
      expect(line!.includes('(assumed)')).toBe(op.pathAssumed);
      expect(line!.includes('| yes |')).toBe(op.charges);
    }
  });

  it('is current in the committed docs/reference.md (run `npm run gen` when this fails)', () => {
    const readme = readFileSync(new URL('../../docs/reference.md', import.meta.url), 'utf8');
    expect(withCoverageTable(readme)).toBe(readme);
  });

  it('refuses a README without markers, and replaces only the text between them', () => {
    expect(() => withCoverageTable('no markers here', 'x')).toThrow(/markers/);
    const doc = `before\n${START_MARKER}\nold\n${END_MARKER}\nafter`;
    expect(withCoverageTable(doc, 'new')).toBe(`before\n${START_MARKER}\nnew\n${END_MARKER}\nafter`);
  });
});
