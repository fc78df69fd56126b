// The per-path tally of the payload checks from the NDJSON stream: only points of the two counters count, by their
// operation, path and layer tags; the section's totals are their sums.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { payloadChecksOf } from './payload-checks.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-payload-tally-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const point = (metric: string, tags: Record<string, string>, value = 1): string =>
  JSON.stringify({ type: 'Point', metric, data: { time: '2026-01-01T00:00:00Z', value, tags } });

describe('payloadChecksOf', () => {
  it('sums the counters per operation, path and layer, errors first', async () => {
    const file = join(dir, 'metrics.ndjson');
    const tags = { operation: 'v2.catalog.countries', api: 'v2', path: '$.payLoad[*]', layer: 'spec' };
    writeFileSync(
      file,
      [
        JSON.stringify({
          type: 'Metric',
          metric: 'gateway_schema_violations',
          data: { name: 'gateway_schema_violations', type: 'counter' },
        }),
        point('gateway_schema_violations', tags),
        point('gateway_schema_violations', tags),
        point('gateway_payload_warnings', { ...tags, path: '$.payLoad[*].region', layer: 'observed' }),
        point('gateway_schema_violations', { operation: 'v2.lookup.mobile', api: 'v2', path: '$.payLoad', layer: 'envelope' }),
        point('http_reqs', { operation: 'v2.catalog.countries' }, 5),
      ].join('\n'),
    );
    const checks = await payloadChecksOf({ ndjsonPath: file, samples: [], baselineDir: '/b' });
    expect(checks).toEqual({
      violations: 3,
      warnings: 1,
      baselineDir: '/b',
      byPath: [
        { operation: 'v2.catalog.countries', path: '$.payLoad[*]', layer: 'spec', severity: 'error', count: 2 },
        { operation: 'v2.lookup.mobile', path: '$.payLoad', layer: 'envelope', severity: 'error', count: 1 },
        { operation: 'v2.catalog.countries', path: '$.payLoad[*].region', layer: 'observed', severity: 'warning', count: 1 },
      ],
      samples: [],
    });
  });

  it('no stream, no payload part', async () => {
    expect(await payloadChecksOf({ samples: [] })).toBeUndefined();
  });
});
