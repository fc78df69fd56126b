// The example configuration of docs/reference.md (moved there from the README) is real: extracted and loaded by the config loader, it must
// load without error and take effect (fieldMapping overrides included).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { loadConfig } from './load-config.ts';

const README = readFileSync(fileURLToPath(new URL('../docs/reference.md', import.meta.url)), 'utf8');

/** The ```json block that follows the sentence introducing the example config file. */
function exampleConfig(): string {
  const intro = README.indexOf('Example `gateway-harness.config.json`');
  expect(intro, 'README introduces an example gateway-harness.config.json').toBeGreaterThan(-1);
  const block = /```json\n([\s\S]*?)```/.exec(README.slice(intro));
  expect(block, 'a ```json block follows the introduction').not.toBeNull();
  return (block as RegExpExecArray)[1] as string;
}

describe('README example config', () => {
  it('loads and its field mapping takes effect', () => {
    const text = exampleConfig();
    const config = loadConfig({ cwd: '/nonexistent', env: {}, flags: { config: 'gateway-harness.config.json' }, readFile: () => text });
    const example = JSON.parse(text) as { fieldMapping: Record<string, Record<string, string>>; writePaths: Record<string, string> };
    expect(config.writePaths).toEqual(example.writePaths);
    for (const [section, fields] of Object.entries(example.fieldMapping)) {
      expect(config.fieldMapping[section as keyof typeof DEFAULT_FIELD_MAPPING], section).toMatchObject(fields);
    }
    // Fields the example does not name keep their defaults.
    expect(config.fieldMapping.v2Sku.skuId).toBe(DEFAULT_FIELD_MAPPING.v2Sku.skuId);
  });
});
