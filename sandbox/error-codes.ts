// Every responseCode the sandbox can answer, with its message: the spec's codes plus the ones it leaves to us (assumed).
// Routes name outcomes by key, never by number, so a profile can renumber an assumed code without touching a route.

/** Why a request ended the way it did; each key maps to one responseCode. */
export type ResponseCodeKey =
  | 'success'
  | 'amountOutOfRange'
  | 'accountNotActivated'
  | 'invalidNumber'
  | 'outOfStock'
  | 'inProgress'
  | 'invalidRequest'
  | 'unknownSku'
  | 'wrongCategory'
  | 'insufficientFunds'
  | 'duplicateCorrelationId'
  | 'notFound'
  | 'currencyNotAllowed'
  | 'lookupUnsupported'
  | 'loanDue'
  | 'unauthorized'
  | 'unknownPath'
  | 'internalError';

export interface ResponseCodeEntry {
  readonly code: string;
  /** Default responseMessage (routes may replace it with a more specific one, e.g. the 001 bounds message). */
  readonly message: string;
  /** True when the spec does not name this code: chosen by the sandbox, listed in README "assumed behaviours". */
  readonly assumed: boolean;
}

/**
 * The faithful table. Spec codes (Errors: "Codes named in the interface"): 000, 001, 500, 501, 510, 852. The assumed
 * codes reuse numbers from the legacy client code list (observed-payloads.md) whose meanings are not public, plus
 * 998/999 for the sandbox's own non-business failures.
 */
export const DEFAULT_RESPONSE_CODES: Readonly<Record<ResponseCodeKey, ResponseCodeEntry>> = Object.freeze({
  success: { code: '000', message: 'Success', assumed: false },
  amountOutOfRange: { code: '001', message: 'Amount outside the allowed range of the denomination', assumed: false },
  accountNotActivated: { code: '500', message: 'Account not activated', assumed: false },
  // Message as the gateway's public docs print it for 501.
  invalidNumber: { code: '501', message: 'The Subscriber number is not valid', assumed: false },
  outOfStock: { code: '510', message: 'The SKU is out of stock', assumed: false },
  inProgress: { code: '852', message: 'Transaction in progress', assumed: false },
  invalidRequest: { code: '003', message: 'Invalid request', assumed: true },
  unknownSku: { code: '004', message: 'The SKU does not exist', assumed: true },
  wrongCategory: { code: '005', message: 'The SKU is not valid for this operation', assumed: true },
  insufficientFunds: { code: '009', message: 'Insufficient funds in the wallet', assumed: true },
  duplicateCorrelationId: { code: '015', message: 'Duplicate correlationId', assumed: true },
  notFound: { code: '027', message: 'No record found', assumed: true },
  currencyNotAllowed: { code: '032', message: 'The transaction currency is not allowed for this SKU', assumed: true },
  lookupUnsupported: { code: '033', message: 'Mobile number lookup is not supported for this country', assumed: true },
  loanDue: { code: '035', message: 'The outstanding loan must be paid with this purchase', assumed: true },
  unauthorized: { code: '041', message: 'Authentication failed', assumed: true },
  unknownPath: { code: '998', message: 'Resource not found', assumed: true },
  internalError: { code: '999', message: 'Internal error', assumed: true },
});

export type ResponseCodeTable = Readonly<Record<ResponseCodeKey, ResponseCodeEntry>>;

/** The record served by v1/v2 catalog/errors (assumed shape: the spec says only "array of error codes"). */
export interface ErrorCodeRecord {
  code: string;
  description: string;
}

/** The error-code list in code order; codes shared by two keys (a profile's renumbering) appear once. */
export function errorCodeList(table: ResponseCodeTable): ErrorCodeRecord[] {
  const byCode = new Map<string, ErrorCodeRecord>();
  for (const entry of Object.values(table)) {
    if (!byCode.has(entry.code)) byCode.set(entry.code, { code: entry.code, description: entry.message });
  }
  return [...byCode.values()].sort((a, b) => a.code.localeCompare(b.code));
}

/** Checks an override table: every code a non-empty string, and no two keys sharing a code (it would hide outcomes). */
export function checkResponseCodes(table: ResponseCodeTable): string | undefined {
  const seen = new Map<string, string>();
  for (const [key, entry] of Object.entries(table)) {
    if (typeof entry.code !== 'string' || entry.code === '') return `response code for '${key}' must be a non-empty string`;
    const other = seen.get(entry.code);
    if (other !== undefined) return `response code '${entry.code}' is used for both '${other}' and '${key}'`;
    seen.set(entry.code, key);
  }
  return undefined;
}
