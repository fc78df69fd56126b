// GEN's coverage of the request schemas, derived from the same keyword model the cases use: operation × keyword, with
// the requests one generated input sends; conformance/README.md carries it (a test keeps the two in step).
import { OPERATIONS, type Operation, type RequestBodyName } from '../../api/operations.ts';
import { bodyFacts } from '../request-rules.ts';
import { authOperations } from './auth.ts';
import { KEYWORD_GROUPS, bodyKeywords, rulesOf, type KeywordGroup } from './keywords.ts';
import { genWriteId } from './writes.ts';
import { FOLLOW_UP, STATUS_PURPOSES } from './money-checks.ts';
import { chargingWrites } from './money.ts';

/** Requests of one generated input, by case kind (a correlationId under 12 characters adds one status read: fresh-id.ts). */
const REQUESTS: Readonly<Record<KeywordGroup | 'VALID' | 'AMOUNT-OUTSIDE', string>> = {
  VALID: '1 write (+ status polls while 852) + 1 status read for RTR/PIN/gift card',
  LENGTH: "3: write, balance, status (the balance before is the previous input's after)",
  REQUIRED: "3: write, balance, status (the balance before is the previous input's after)",
  TYPES: "3: write, balance, status (the balance before is the previous input's after)",
  PATTERN: "3: write, balance, status (the balance before is the previous input's after)",
  'AMOUNT-OUTSIDE': "3: write, balance, status (the balance before is the previous input's after)",
};

function keywordsOf(name: RequestBodyName, group: KeywordGroup): string {
  const byField = new Map<string, string[]>();
  for (const r of rulesOf(name, group)) byField.set(r.field, [...(byField.get(r.field) ?? []), r.keyword]);
  return [...byField].map(([field, keywords]) => `${field} (${keywords.join(', ')})`).join('; ');
}

function validSpace(name: RequestBodyName): string {
  const facts = bodyFacts(name);
  const parts = [`skuId: every usable SKU${facts.skuCategory === undefined ? '' : ' of its category'}`];
  if (facts.properties.includes('amount')) parts.push('amount: to the cent within the bounds, wallet currency and each FaceValueCurrency');
  if (facts.properties.includes('correlationId')) parts.push('correlationId: 1..50 characters × 5 classes');
  if (/null or empty/.test(facts.rows.transactionCurrencyCode?.rule ?? '')) parts.push('transactionCurrencyCode absent, null or ""');
  if (bodyKeywords(name).rules.some((r) => r.keyword === 'pattern' && r.field === 'operatorPin'))
    parts.push('operatorPin absent, "", null or 4..6 digits');
  return parts.join('; ');
}

function rowsOf(op: Operation): string[] {
  const name = op.requestBody as RequestBodyName;
  const rows = [`| ${op.id} | \`${genWriteId(op, 'VALID')}\` | valid space: ${validSpace(name)} | ${op.charges ? REQUESTS.VALID : '1'} |`];
  // Without a correlationId there is no status to read.
  const refused = (group: KeywordGroup): string =>
    bodyFacts(name).properties.includes('correlationId') ? REQUESTS[group] : '2: write, balance';
  for (const group of KEYWORD_GROUPS) {
    if (rulesOf(name, group).length > 0)
      rows.push(`| ${op.id} | \`${genWriteId(op, group)}\` | ${keywordsOf(name, group)} | ${refused(group)} |`);
  }
  if (name === 'topup')
    rows.push(
      `| ${op.id} | \`${genWriteId(op, 'AMOUNT-OUTSIDE')}\` | amount below the minimum / above the maximum of the denomination by any distance | ${REQUESTS['AMOUNT-OUTSIDE']} |`,
    );
  return rows;
}

/** Keywords of the schemas that state no rule (nothing must be refused for them). */
function unstatedRows(): string[] {
  const names = [...new Set(OPERATIONS.flatMap((op) => (op.requestBody === undefined ? [] : [op.requestBody])))];
  return names.flatMap((name) => bodyKeywords(name).unstated.map((u) => `| ${name} | ${u.field} \`${u.keyword}\` | ${u.why} |`));
}

/** The States and transitions table × every charging write: how GEN-MONEY-SEQUENCE-<V> reaches each transition, and what reads it again. */
function transitionRows(): string[] {
  return (['v1', 'v2'] as const).flatMap(chargingWrites).map((op) => {
    const facts = bodyFacts(op.requestBody as RequestBodyName);
    const refused = facts.properties.includes('amount')
      ? "an amount below the minimum of its currency ('001')"
      : 'a SKU of another category';
    const inProgress =
      op.purpose === 'transaction.giftcard'
        ? "the spec's '852': polled on status until final"
        : "when the target answers '852': polled on status until final";
    const rereads = [
      STATUS_PURPOSES.includes(op.purpose) ? 'status' : '',
      FOLLOW_UP[op.purpose] === undefined ? '' : `${op.version}.${FOLLOW_UP[op.purpose]?.read ?? ''}`,
    ]
      .filter((r) => r !== '')
      .join(' + ');
    return `| ${op.id} | \`GEN-MONEY-SEQUENCE-${op.version.toUpperCase()}\` | valid write, alone or beside others | ${refused} | ${inProgress} | not generated (TRG delays, faults profiles) | ${rereads === '' ? 'balance (the spec names no read of it)' : `${rereads}, balance`} |`;
  });
}

/** The coverage tables as conformance/README.md prints them. */
export function coverageMarkdown(): string {
  const writes = OPERATIONS.filter((op) => op.requestBody !== undefined).flatMap(rowsOf);
  const auth = (['v1', 'v2'] as const)
    .flatMap((v) => authOperations(v))
    .map(
      (op) =>
        `| ${op.id} | \`GEN-AUTH-${op.id}\` | no header, other schemes, empty user/password, unknown user, password prefix/extension/case change, no colon, not base64, other environment (when configured), the right ones | ${op.charges ? '4 for a near miss (balance, write, balance, status); 1 for the right ones' : '1'} |`,
    );
  return [
    '| Operation | GEN case | Keywords broken (field (keyword)) / space | Requests per generated input |',
    '|---|---|---|---|',
    ...writes,
    ...auth,
    '',
    '| Body | Schema keyword not generated | Why |',
    '|---|---|---|',
    ...unstatedRows(),
    '',
    "| Charging write | GEN case | Submitted → Successful ('000') | Submitted → Failed (not '000', not '852') | Submitted → In progress → final | Submitted → Unknown, HTTP ≠ 200 | Read again after every step (final stays final) |",
    '|---|---|---|---|---|---|---|',
    ...transitionRows(),
  ].join('\n');
}
