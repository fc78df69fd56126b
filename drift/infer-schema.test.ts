// Tests of schema inference: one behaviour each — types, required, merged array items, nullable, formats, stable output.
import { describe, expect, it } from 'vitest';
import { accumulate, inferSchema, sketchOf, sketchSimilarity, stableStringify, toSchema, walkAccumulator } from './infer-schema.ts';

describe('inferSchema', () => {
  it('gives each JSON type its schema type', () => {
    const schema = inferSchema([{ s: 'a', i: 1, n: 1.5, b: true, o: {}, a: [], z: null }]);
    expect(schema.properties).toEqual({
      s: { type: 'string' },
      i: { type: 'number' },
      n: { type: 'number' },
      b: { type: 'boolean' },
      o: { type: 'object', properties: {}, required: [] },
      a: { type: 'array' },
      z: { type: 'null' },
    });
  });

  it('marks as required only the members present in every sample', () => {
    const schema = inferSchema([{ a: 1, b: 2 }, { a: 3 }]);
    expect(schema.required).toEqual(['a']);
    expect(Object.keys(schema.properties ?? {})).toEqual(['a', 'b']);
  });

  it('merges the items of every array into one item schema', () => {
    const schema = inferSchema([[{ id: 1, x: 'a' }], [{ id: 2 }, { id: 3, y: true }]]);
    expect(schema.items?.required).toEqual(['id']);
    expect(Object.keys(schema.items?.properties ?? {})).toEqual(['id', 'x', 'y']);
  });

  it('makes a member nullable where a null was seen', () => {
    const schema = inferSchema([{ detail: { a: 1 } }, { detail: null }]);
    expect(schema.properties?.detail?.type).toEqual(['null', 'object']);
  });

  it('writes whole and fractional numbers alike as number (which one a sample holds is data)', () => {
    expect(inferSchema([1, 2.5]).type).toBe('number');
    expect(inferSchema([1, 2]).type).toBe('number');
  });

  it('recognizes a format only when every non-empty string matches it', () => {
    expect(inferSchema(['2024-05-01T10:00:00+05:00', '2024-05-02T00:00:00Z']).format).toBe('date-time');
    expect(inferSchema(['2024-05-01', '']).format).toBe('date');
    expect(inferSchema(['https://a.example/x.png']).format).toBe('uri');
    expect(inferSchema(['2024-05-01', '12/9/2021 05:09']).format).toBeUndefined();
  });

  it('keeps payload values out of the schema', () => {
    const text = stableStringify(inferSchema([{ pin: '4321', amount: 12.5 }]));
    expect(text).not.toContain('4321');
    expect(text).not.toContain('12.5');
  });
});

describe('stableStringify', () => {
  it('writes schema keywords in a fixed order and member names in code-unit order', () => {
    const text = stableStringify(toSchema(accumulate([{ b: 1, a: 'x', B: 2 }])));
    expect(text.indexOf('"type"')).toBeLessThan(text.indexOf('"required"'));
    expect(text.indexOf('"required"')).toBeLessThan(text.indexOf('"properties"'));
    const names = [...text.matchAll(/^ {4}"(\w)": \{/gm)].map((m) => m[1]);
    expect(names).toEqual(['B', 'a', 'b']);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('gives the same bytes for the same samples in another order', () => {
    const a = stableStringify(
      inferSchema([
        { x: 1, y: 'a' },
        { y: 'b', z: null },
      ]),
    );
    const b = stableStringify(
      inferSchema([
        { z: null, y: 'b' },
        { y: 'a', x: 1 },
      ]),
    );
    expect(a).toBe(b);
  });
});

describe('value sketches', () => {
  it('estimate full overlap for the same values and none for disjoint ones', () => {
    const values = (list: unknown[]): string[] => {
      let sketch: string[] = [];
      walkAccumulator(accumulate(list), (path, acc) => {
        if (path === '$') sketch = sketchOf(acc.digests);
      });
      return sketch;
    };
    const a = values(['JM', 'IN', 'PK', 'MX', 'US', 'GB', 'BR']);
    expect(sketchSimilarity(a, values(['BR', 'GB', 'US', 'MX', 'PK', 'IN', 'JM']))).toBe(1);
    expect(sketchSimilarity(a, values(['x1', 'x2', 'x3', 'x4', 'x5', 'x6']))).toBe(0);
    expect(a).toHaveLength(5);
  });
});
