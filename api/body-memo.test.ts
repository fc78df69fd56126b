// BodyMemo: a hit needs the same key, the very same text and the same context object; it stays bounded per key and
// never holds a text over its limit (those are computed every time).
import { describe, expect, it } from 'vitest';
import { BodyMemo } from './body-memo.ts';

function counting(): { memo: BodyMemo<string>; calls: string[]; get: (key: string, text: string | undefined, context: object) => string } {
  const memo = new BodyMemo<string>(2, 10);
  const calls: string[] = [];
  return {
    memo,
    calls,
    get: (key, text, context) =>
      memo.value(key, text, context, () => {
        calls.push(`${key}:${String(text)}`);
        return `${key}:${String(text)}`;
      }),
  };
}

describe('BodyMemo', () => {
  it('computes a text once per key and context, and again for another key, text or context', () => {
    const { get, calls } = counting();
    const a = {};
    const b = {};
    expect([get('op', 'x', a), get('op', 'x', a), get('op', 'y', a), get('other', 'x', a), get('op', 'x', b)]).toEqual([
      'op:x',
      'op:x',
      'op:y',
      'other:x',
      'op:x',
    ]);
    expect(calls).toEqual(['op:x', 'op:y', 'other:x', 'op:x']);
  });

  it('holds the newest texts per key only, and computes texts over the limit or without text every time', () => {
    const { get, calls } = counting();
    const c = {};
    get('op', 'a', c);
    get('op', 'b', c);
    get('op', 'c', c); // 'a' leaves
    get('op', 'b', c);
    get('op', 'a', c);
    expect(calls).toEqual(['op:a', 'op:b', 'op:c', 'op:a']);
    get('op', 'x'.repeat(11), c);
    get('op', 'x'.repeat(11), c);
    get('op', undefined, c);
    get('op', undefined, c);
    expect(calls.slice(4)).toEqual([`op:${'x'.repeat(11)}`, `op:${'x'.repeat(11)}`, 'op:undefined', 'op:undefined']);
  });
});
