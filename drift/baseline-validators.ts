// A baseline as a payload check: each operation's learned envelope schema turned into a validator that fails only on
// what the drift rules call breaking, compiled (ajv standalone) into the module the k6 bundle imports — never inside k6.
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS, quietAjvLogger } from '../schemas/ajv-options.ts';
import type { Baseline } from './baseline-files.ts';
import type { InferredSchema, JsonType } from './infer-schema.ts';

// ajv's standalone module is CommonJS: under Node ESM the default import is `module.exports`, whose `.default` is the function.
const standaloneCode = standaloneModule.default;
const ID_PREFIX = 'https://gateway-harness.dev/baseline/';

export interface ValidationSchema {
  type?: string | string[];
  properties?: Record<string, ValidationSchema>;
  required?: string[];
  items?: ValidationSchema;
}

/**
 * The per-response form of the drift rules (drift/compare.ts): a member present in every baseline sample must be
 * present (field-removed, field-renamed, no-longer-always-present are breaking), and a value must have a JSON type the
 * baseline saw (type-changed is breaking; integer is number; null says nothing about a type, so null always passes).
 * What the rules call non-breaking is not checked: new members (no additionalProperties), formats, values, vocabularies.
 */
export function validationSchemaOf(schema: InferredSchema): ValidationSchema {
  const out: ValidationSchema = {};
  const listed: JsonType[] = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const kinds = [...new Set(listed.filter((t) => t !== 'null').map((t) => (t === 'integer' ? 'number' : t)))].sort();
  if (kinds.length > 0) out.type = [...kinds, 'null'];
  if (kinds.includes('object') && schema.properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, child]) => [key, validationSchemaOf(child)]));
    if (schema.required !== undefined && schema.required.length > 0) out.required = [...schema.required];
  }
  if (kinds.includes('array') && schema.items !== undefined) out.items = validationSchemaOf(schema.items);
  return out;
}

/**
 * ES module source exporting `BASELINE_VALIDATORS` (operation id → standalone validator) for the observed operations
 * of the baseline: the replacement of load/baseline-validators.ts in a bundle built with a baseline.
 */
export function baselineValidatorsModule(baseline: Pick<Baseline, 'entries' | 'dir'>): string {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { ...AJV_OPTIONS.code }, logger: quietAjvLogger(console) });
  const exports: Record<string, string> = {};
  const names: [string, string][] = [];
  [...baseline.entries.keys()].sort().forEach((operationId, index) => {
    const entry = baseline.entries.get(operationId);
    if (entry === undefined) return;
    const id = `${ID_PREFIX}${encodeURIComponent(operationId)}.json`;
    ajv.addSchema({ $id: id, ...validationSchemaOf(entry.schema) });
    exports[`baseline${index}`] = id;
    names.push([operationId, `baseline${index}`]);
  });
  const code = names.length === 0 ? '' : standaloneCode(ajv, exports).replace(/^"use strict";\n?/, '');
  return [
    `// compiled by drift/baseline-validators.ts from the baseline in ${JSON.stringify(baseline.dir)}: do not edit`,
    code,
    `export const BASELINE_VALIDATORS = {${names.map(([op, name]) => `\n  ${JSON.stringify(op)}: ${name},`).join('')}\n};`,
    '',
  ].join('\n');
}
