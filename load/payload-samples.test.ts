// Samples travel from the VUs to the report as console lines: they survive any chunking and k6's log format, only the
// first few per operation and path are kept, and they are taken out of what people see on the console.
import { describe, expect, it } from 'vitest';
import { SampleBudget, SampleCollector, sampleLine, withoutSampleLines } from './payload-samples.ts';

const violation = {
  layer: 'spec' as const,
  severity: 'error' as const,
  path: '$.payLoad[*].skuId',
  pointer: '/payLoad/0/skuId',
  message: 'payLoad[0].skuId must be an integer',
};
const body = { responseCode: '000', responseMessage: null, payLoad: [{ skuId: '12 "quoted" \\ text' }] };

describe('payload samples', () => {
  it('a k6 logfmt line split across chunks comes back whole', () => {
    const line = `time="2026-01-01T00:00:00Z" level=warning msg="${sampleLine('v2.catalog.skus', violation, body)}" source=console\n`;
    const collector = new SampleCollector();
    collector.write(line.slice(0, 40));
    collector.write(line.slice(40, 90));
    collector.write(line.slice(90));
    expect(collector.samples).toEqual([
      {
        operation: 'v2.catalog.skus',
        path: '$.payLoad[*].skuId',
        layer: 'spec',
        severity: 'error',
        message: violation.message,
        received: '"12 \\"quoted\\" \\\\ text"',
      },
    ]);
  });

  it('keeps the first three per operation and path, over all VUs', () => {
    const collector = new SampleCollector();
    for (let i = 0; i < 5; i++) collector.write(`${sampleLine('v2.catalog.skus', violation, body)}\n`);
    collector.write(`${sampleLine('v2.catalog.skus', { ...violation, path: '$.payLoad[*]' }, body)}`);
    collector.flush();
    expect(collector.samples.map((s) => s.path)).toEqual([
      '$.payLoad[*].skuId',
      '$.payLoad[*].skuId',
      '$.payLoad[*].skuId',
      '$.payLoad[*]',
    ]);
  });

  it('a VU prints a bounded number of sample lines', () => {
    const budget = new SampleBudget(3, 4);
    expect([1, 2, 3, 4].map(() => budget.take('a', '$'))).toEqual([true, true, true, false]);
    expect([1, 2, 3].map((i) => budget.take('b', `$${i}`))).toEqual([true, false, false]);
  });

  it('sample lines are not shown on the console; other lines are', () => {
    expect(withoutSampleLines(`a\n${sampleLine('x', violation, body)}\nb\n`)).toBe('a\nb\n');
    expect(withoutSampleLines('plain\n')).toBe('plain\n');
  });
});
