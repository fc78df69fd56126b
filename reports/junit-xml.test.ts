// The JUnit writer: counts per suite, escaping, failure/skip bodies, and real durations (never a constant).
import { describe, expect, it } from 'vitest';
import { escapeXml, junitXml } from './junit-xml.ts';

describe('junitXml', () => {
  const xml = junitXml([
    {
      name: 'conformance',
      timeSec: 12.3456,
      timestamp: '2026-11-22T14:00:00',
      properties: { target: 'http://127.0.0.1:1' },
      cases: [
        { name: 'TRG-510-V2 ends 510 → 510', classname: 'TRG', timeSec: 0.25, status: 'passed' },
        {
          name: 'LEN-CORR-51-V2 <51 chars>',
          classname: 'LEN',
          timeSec: 1.5,
          status: 'failed',
          message: 'accepted',
          type: 'response-code',
          details: 'expected "001"\nreceived \'000\' & more',
        },
        { name: 'LOAN-TWO-STEP', classname: 'LOAN', timeSec: 0, status: 'skipped', message: 'no loan numbers' },
      ],
    },
    {
      name: 'load',
      timeSec: 3,
      cases: [{ name: 'p(95)<500', classname: 'http_req_duration', timeSec: 3, status: 'error', message: 'bad' }],
    },
  ]);

  it('totals and per-suite counts', () => {
    expect(xml).toContain('<testsuites name="gateway-harness" tests="4" failures="1" errors="1" time="15.346">');
    expect(xml).toContain(
      '<testsuite name="conformance" id="0" tests="3" failures="1" errors="0" skipped="1" time="12.346" timestamp="2026-11-22T14:00:00">',
    );
  });

  it('escapes names, messages and bodies; durations are the measured ones', () => {
    expect(xml).toContain('name="LEN-CORR-51-V2 &lt;51 chars&gt;" classname="LEN" time="1.500"');
    expect(xml).toContain(
      '<failure message="accepted" type="response-code">expected &quot;001&quot;\nreceived &apos;000&apos; &amp; more</failure>',
    );
    expect(xml).toContain('<skipped message="no loan numbers"/>');
    expect(xml).toContain('<error message="bad" type="error">bad</error>');
    expect(xml).toContain('<property name="target" value="http://127.0.0.1:1"/>');
  });

  it('writes case properties as name: value lines of system-out (the XSD allows no properties in a testcase)', () => {
    const one = junitXml([
      {
        name: 's',
        timeSec: 1,
        cases: [{ name: 'c', classname: 'k', timeSec: 1, status: 'passed', properties: { rule: 'a < b' }, systemOut: 'note' }],
      },
    ]);
    expect(one).toContain('<system-out>rule: a &lt; b\nnote</system-out>');
    expect(one).not.toMatch(/<testcase[^>]*>\s*<properties>/);
  });

  it('drops characters XML cannot carry', () => {
    expect(escapeXml('a\u0001b\u001Fc\td')).toBe('abc\td');
  });
});
