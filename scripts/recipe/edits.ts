// Text edits the recipe proof applies to a copy of the tree: a new file, a line after an anchor, or one replacement.
// Anchors and replaced texts are short fragments a formatter leaves whole on one line (a call opening, a name, a row).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One edit: a new file (no anchor, no replace), `text` put after the line that contains `anchor`, or `replace` → `text`. */
export interface RecipeEdit {
  readonly file: string;
  readonly anchor?: string;
  readonly replace?: string;
  readonly text: string;
}

/** A made-up operation: what ARCHITECTURE.md's recipe table names (`<name>` the body, `<group>` the route module) and its edits. */
export interface MadeUp {
  readonly ids: readonly string[];
  readonly name: string;
  readonly group: string;
  readonly edits: readonly RecipeEdit[];
}

/** The request-schema fields both made-up operations take as the spec's top-up request states them (its words quoted). */
export const TOPUP_BODY_FIELDS = Object.freeze({
  skuId: {
    description: 'Spec: "integer int32", required; "SKU whose category is RTR".',
    type: 'integer',
    minimum: -2147483648,
    maximum: 2147483647,
  },
  amount: { description: 'Spec: "number double", required; "Wallet currency unless transactionCurrencyCode is given".', type: 'number' },
  mobile: { description: 'Spec: "string, non-empty", required; "Number of the SKU\'s country".', type: 'string', minLength: 1 },
});

/** Applies the edits under `root` in order; throws naming the file when an anchor or a replaced text is missing. */
export function applyEdits(root: string, edits: readonly RecipeEdit[]): void {
  for (const edit of edits) {
    const path = join(root, edit.file);
    if (edit.replace !== undefined) {
      writeFileSync(path, replaceOnce(edit.file, readFileSync(path, 'utf8'), edit.replace, edit.text));
    } else if (edit.anchor === undefined) {
      if (existsSync(path)) throw new Error(`${edit.file} exists already`);
      writeFileSync(path, edit.text);
    } else {
      const lines = readFileSync(path, 'utf8').split('\n');
      const at = lines.findIndex((line) => line.includes(edit.anchor as string));
      if (at === -1) throw new Error(`${edit.file}: no line contains ${JSON.stringify(edit.anchor)}`);
      lines.splice(at + 1, 0, edit.text);
      writeFileSync(path, lines.join('\n'));
    }
  }
}

/** `text` in place of the one occurrence of `replace`; throws naming the file when there is none or more than one. */
function replaceOnce(file: string, source: string, replace: string, text: string): string {
  const at = source.indexOf(replace);
  if (at === -1 || source.indexOf(replace, at + 1) !== -1) {
    throw new Error(`${file}: ${at === -1 ? 'no' : 'more than one'} occurrence of ${JSON.stringify(replace)}`);
  }
  return source.slice(0, at) + text + source.slice(at + replace.length);
}
