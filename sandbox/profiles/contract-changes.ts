// Contract-change profiles: each changes the sandbox's contract in one way the spec's Versioning section classifies
// (a field renamed, removed, added, retyped; a header dropped; a v2 operation regressing against v1), via profile hooks only.
// Owned by drift/ and migrate/ (their tests prove each change is classified exactly as declared here).
import { OPERATIONS } from '../../api/operations.ts';
import type { SandboxProfile } from './types.ts';
import type { ProfileEnvelopeContext } from './hooks.ts';

/** One finding `baseline check` must report against the profile (the drift/compare.ts vocabulary). */
export interface ExpectedFinding {
  readonly operationId: string;
  readonly path: string;
  readonly kind: 'breaking' | 'non-breaking';
  readonly change: string;
}

export interface ContractChange {
  /** The spec rule that classifies the change, quoted (Versioning). */
  readonly rule: string;
  /** Profile the baseline is recorded against before checking this one (default 'faithful'). */
  readonly baselineProfile: string;
  /** Exactly the findings `baseline check` reports: no more, no fewer. */
  readonly expectedFindings: readonly ExpectedFinding[];
  /** Migration pairs (catalog purposes) that `migrate` must report as regressions; empty for the others. */
  readonly expectedRegressions: readonly string[];
}

export interface ContractChangeProfile extends SandboxProfile {
  readonly contractChange: ContractChange;
}

const BREAKING =
  'Breaking changes are: removing or renaming endpoints, adding required request fields or headers, removing or renaming request fields or headers, removing or renaming response fields or headers.';
const NON_BREAKING =
  'Non-breaking changes need no new version and are made without prior notice. They are: new endpoints, new optional request fields or headers, new response fields or headers, and data changes';

const isSuccess = (ctx: ProfileEnvelopeContext, operationId: string): boolean =>
  ctx.operationId === operationId && ctx.envelope.responseCode === '000';

/** Applies `change` to every record of a successful array payload of the operation. */
function everyRecord(operationId: string, change: (record: Record<string, unknown>, index: number) => void) {
  return (ctx: ProfileEnvelopeContext): void => {
    if (!isSuccess(ctx, operationId) || !Array.isArray(ctx.envelope.payLoad)) return;
    ctx.envelope.payLoad.forEach((record: unknown, index: number) => {
      if (record !== null && typeof record === 'object' && !Array.isArray(record)) change(record as Record<string, unknown>, index);
    });
  };
}

/** A request id header as many gateways add one; a counter keeps the value unique per response. */
let requestCounter = 0;
const REQUEST_ID = 'x-request-id';
const requestIdHeader = (): Record<string, string> => ({ [REQUEST_ID]: `req-${++requestCounter}` });

export const CONTRACT_CHANGE_PROFILES: ContractChangeProfile[] = [
  {
    name: 'contract-field-renamed',
    description: 'Contract change: v2 catalog/countries renames countryName to name (same values).',
    hooks: {
      onEnvelope: everyRecord('v2.catalog.countries', (record) => {
        record.name = record.countryName;
        delete record.countryName;
      }),
    },
    contractChange: {
      rule: BREAKING,
      baselineProfile: 'faithful',
      expectedFindings: [
        { operationId: 'v2.catalog.countries', path: '$.payLoad[*].countryName', kind: 'breaking', change: 'field-renamed' },
      ],
      expectedRegressions: [],
    },
  },
  {
    name: 'contract-field-removed',
    description: 'Contract change: v1 catalog/sku/exchangeRate no longer returns productName.',
    hooks: {
      onEnvelope(ctx) {
        const payload = ctx.envelope.payLoad;
        if (!isSuccess(ctx, 'v1.catalog.sku-exchange-rate') || payload === null || typeof payload !== 'object') return;
        delete (payload as Record<string, unknown>).productName;
      },
    },
    contractChange: {
      rule: BREAKING,
      baselineProfile: 'faithful',
      expectedFindings: [
        { operationId: 'v1.catalog.sku-exchange-rate', path: '$.payLoad.productName', kind: 'breaking', change: 'field-removed' },
      ],
      expectedRegressions: [],
    },
  },
  {
    name: 'contract-field-added',
    description: 'Contract change: v2 catalog/operators adds an operatorCode field to every operator.',
    hooks: {
      onEnvelope: everyRecord('v2.catalog.operators', (record) => {
        record.operatorCode = `OP-${String(record.operatorId)}`;
      }),
    },
    contractChange: {
      rule: NON_BREAKING,
      baselineProfile: 'faithful',
      expectedFindings: [
        { operationId: 'v2.catalog.operators', path: '$.payLoad[*].operatorCode', kind: 'non-breaking', change: 'field-added' },
      ],
      expectedRegressions: [],
    },
  },
  {
    name: 'contract-type-changed',
    description: 'Contract change: v1 catalog/countries sends numberLength as a number instead of a string.',
    hooks: {
      onEnvelope: everyRecord('v1.catalog.countries', (record) => {
        record.numberLength = Number(record.numberLength);
      }),
    },
    contractChange: {
      rule: `${BREAKING} (a retyped field is the old field removed)`,
      baselineProfile: 'faithful',
      expectedFindings: [
        { operationId: 'v1.catalog.countries', path: '$.payLoad[*].numberLength', kind: 'breaking', change: 'type-changed' },
      ],
      expectedRegressions: [],
    },
  },
  {
    name: 'contract-field-sometimes-missing',
    description: 'Contract change: v2 catalog/getproducts leaves description out of every other product.',
    hooks: {
      onEnvelope: everyRecord('v2.catalog.getproducts', (record, index) => {
        if (index % 2 === 1) delete record.description;
      }),
    },
    contractChange: {
      rule: `${BREAKING} (a field every client could rely on is gone from some answers)`,
      baselineProfile: 'faithful',
      expectedFindings: [
        { operationId: 'v2.catalog.getproducts', path: '$.payLoad[*].description', kind: 'breaking', change: 'no-longer-always-present' },
      ],
      expectedRegressions: [],
    },
  },
  {
    name: 'contract-header-added',
    description: `Contract change: v2 lookup/mobile answers carry an ${REQUEST_ID} header.`,
    hooks: {
      onEnvelope(ctx) {
        if (ctx.operationId === 'v2.lookup.mobile') return { headers: requestIdHeader() };
      },
    },
    contractChange: {
      rule: NON_BREAKING,
      baselineProfile: 'faithful',
      expectedFindings: [
        { operationId: 'v2.lookup.mobile', path: `headers['${REQUEST_ID}']`, kind: 'non-breaking', change: 'header-added' },
      ],
      expectedRegressions: [],
    },
  },
  {
    name: 'contract-request-ids',
    description: `Contract change: every answer carries an ${REQUEST_ID} header (the baseline of contract-header-dropped).`,
    hooks: {
      onEnvelope: () => ({ headers: requestIdHeader() }),
    },
    contractChange: {
      rule: NON_BREAKING,
      baselineProfile: 'faithful',
      expectedFindings: OPERATIONS.map((op) => ({
        operationId: op.id,
        path: `headers['${REQUEST_ID}']`,
        kind: 'non-breaking' as const,
        change: 'header-added',
      })),
      expectedRegressions: [],
    },
  },
  {
    name: 'contract-header-dropped',
    description: `Contract change: every answer carries an ${REQUEST_ID} header except v2 lookup/mobile's (recorded against contract-request-ids).`,
    hooks: {
      onEnvelope(ctx) {
        if (ctx.operationId !== 'v2.lookup.mobile') return { headers: requestIdHeader() };
      },
    },
    contractChange: {
      rule: BREAKING,
      baselineProfile: 'contract-request-ids',
      expectedFindings: [{ operationId: 'v2.lookup.mobile', path: `headers['${REQUEST_ID}']`, kind: 'breaking', change: 'header-removed' }],
      expectedRegressions: [],
    },
  },
  {
    name: 'contract-v2-regression',
    description: "Contract change: v2 catalog/sku/exchangeRate answers '027' (not found) for every SKU, while v1 still answers.",
    hooks: {
      onEnvelope(ctx) {
        if (!isSuccess(ctx, 'v2.catalog.sku-exchange-rate')) return;
        return { envelope: { responseCode: '027', responseMessage: 'SKU not found', payLoad: null } };
      },
    },
    contractChange: {
      rule: `${BREAKING} (an operation of the new version fails where the old one succeeds: the migration regresses)`,
      baselineProfile: 'faithful',
      expectedFindings: [{ operationId: 'v2.catalog.sku-exchange-rate', path: '$', kind: 'breaking', change: 'operation-failing' }],
      expectedRegressions: ['catalog.sku-exchange-rate'],
    },
  },
];
