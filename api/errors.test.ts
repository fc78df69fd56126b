// The one wording of a file that is not JSON (parseJsonFile): the k6 summary, merge-results' thresholds file and a
// compared run's summary.json all say it so: GH_ERR_PARSE, what the file is, the parser's reason.
import { describe, expect, it } from 'vitest';
import { parseJsonFile } from './errors.ts';

describe('parseJsonFile', () => {
  it('gives back the parsed value', () => {
    expect(parseJsonFile('{"metrics":{"a":[1]}}', 'the k6 summary s.json')).toEqual({ metrics: { a: [1] } });
  });

  it('refuses text that is not JSON with GH_ERR_PARSE (exit 1), naming the file and the reason, the parser error kept', () => {
    let caught: unknown;
    try {
      parseJsonFile('{"metrics":', 'the k6 summary s.json');
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'GH_ERR_PARSE', exitCode: 1 });
    expect((caught as Error).message).toMatch(/^the k6 summary s\.json is not JSON: \S/);
    expect((caught as Error & { cause?: unknown }).cause).toBeInstanceOf(SyntaxError);
  });
});
