// Planted GEN bugs of the schema-driven write cases and of the authentication space: each breaks a stated rule in a
// corner the hand-written cases miss (a limit that holds only at limit+1, some characters, a valid corner, a near miss, v1 only).
import { Buffer } from 'node:buffer';
import { CONFIG_DEFAULTS } from '../../api/target-config.ts';
import { basicAuthorization } from '../../api/request-builder.ts';
import { refuseWith } from './planted-bugs.ts';
import type { GenBug, SandboxProfile } from '../../sandbox/profiles/types.ts';
import type { ProfileRequest } from '../../sandbox/profiles/hooks.ts';

type GenBugProfile = SandboxProfile & { readonly genBug: GenBug };

const CURRENCY = 'transactionCurrencyCode';
const REFUSE_EMPTY_CURRENCY = refuseWith('transactionCurrencyCode must not be empty');

/** The body of a write of these operations, when it is a JSON object. */
function bodyOf(req: ProfileRequest, operationIds: readonly string[]): Record<string, unknown> | undefined {
  const body = req.body;
  if (req.operationId === undefined || !operationIds.includes(req.operationId)) return undefined;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

const both = (name: string): string[] => [`v1.transaction.${name}`, `v2.transaction.${name}`];
const genIds = (name: string, kind: string): string[] => [`GEN-${name}-${kind}-V1`, `GEN-${name}-${kind}-V2`];
const AUTH_GEN_IDS = [
  'v1.catalog.skus',
  'v1.catalog.lookup-mobile',
  'v1.transaction.status',
  'v1.transaction.topup',
  'v2.catalog.countries',
  'v2.lookup.mobile',
  'v2.transaction.status',
  'v2.transaction.topup',
].map((id) => `GEN-AUTH-${id}`);

/** The password of a Basic header, when its user is the sandbox default's. */
function defaultUserPassword(authorization: string | undefined): string | undefined {
  const token = /^Basic (\S+)$/.exec(authorization ?? '')?.[1];
  if (token === undefined) return undefined;
  const text = Buffer.from(token, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon >= 0 && text.slice(0, colon) === CONFIG_DEFAULTS.user ? text.slice(colon + 1) : undefined;
}

export const SCHEMA_GEN_BUG_PROFILES: readonly GenBugProfile[] = [
  {
    name: 'bug-gen-billpay-currency-over-4',
    description:
      'Planted GEN bug: a bill payment transactionCurrencyCode of 4 characters is refused, but one of 5 or more is dropped (the wallet currency applies) and the payment goes through.',
    hooks: {
      onRequest(req) {
        const body = bodyOf(req, both('billpay'));
        if (body !== undefined && typeof body[CURRENCY] === 'string' && body[CURRENCY].length >= 5) delete body[CURRENCY];
      },
    },
    genBug: {
      rule: 'transactionCurrencyCode | string or null, max 3 chars | no | Currency of amount (Limits: transactionCurrencyCode (bill payment) at most 3 characters)',
      specSection: 'Resources and their fields / Request objects (Bill payment request); Limits',
      expectedGenCases: genIds('BILLPAY', 'LENGTH'),
      corner: 'codes of 5+ characters (LEN-BILLCUR-4 sends 4)',
    },
  },
  {
    name: 'bug-gen-pin-symbols-pass',
    description:
      'Planted GEN bug: an operatorPin with a letter is refused, but one with a symbol, a space or a non-ASCII digit among 4 to 6 characters is taken as a PIN.',
    hooks: {
      onRequest(req) {
        const body = bodyOf(req, both('topup'));
        const pin = body?.operatorPin;
        if (
          body !== undefined &&
          typeof pin === 'string' &&
          pin.length >= 4 &&
          pin.length <= 6 &&
          !/[A-Za-z]/.test(pin) &&
          !/^[0-9]+$/.test(pin)
        )
          body.operatorPin = '1234';
      },
    },
    genBug: {
      rule: 'operatorPin | string or null, 0..6 chars | no | 4 to 6 digit PIN (Limits: operatorPin length 0 to 6 characters (4 to 6 digits when used))',
      specSection: 'Resources and their fields / Request objects (Top-up request); Limits',
      expectedGenCases: genIds('TOPUP', 'PATTERN'),
      corner: 'non-digits other than letters (no hand-written case sends a malformed PIN of 4 to 6 characters)',
    },
  },
  {
    name: 'bug-gen-billpay-empty-currency-refused',
    description:
      'Planted GEN bug: a bill payment with transactionCurrencyCode "" is refused, although the spec says null or empty means the wallet currency.',
    hooks: {
      onRequest(req) {
        const body = bodyOf(req, both('billpay'));
        if (body !== undefined && body[CURRENCY] === '') REFUSE_EMPTY_CURRENCY.refuse(req);
      },
      onEnvelope: REFUSE_EMPTY_CURRENCY.explain,
    },
    genBug: {
      rule: 'transactionCurrencyCode | string or null, max 3 chars | no | Currency of amount; when null or empty the customer wallet currency applies',
      specSection: 'Resources and their fields / Request objects (Bill payment request)',
      expectedGenCases: genIds('BILLPAY', 'VALID'),
      corner: 'the empty code (the hand-written bill payments send the SKU currency or none)',
    },
  },
  {
    name: 'bug-gen-auth-password-prefix',
    description:
      "Planted GEN bug: the password is compared on the characters sent only, so a non-empty prefix of the right password (the sandbox default's) is accepted.",
    hooks: {
      onRequest(req) {
        const right = CONFIG_DEFAULTS.password;
        const sent = defaultUserPassword(req.headers.authorization);
        if (sent !== undefined && sent !== '' && sent !== right && right.startsWith(sent))
          req.headers.authorization = basicAuthorization(CONFIG_DEFAULTS.user, right);
      },
    },
    genBug: {
      rule: 'Every call uses HTTP Basic Authentication with a user id and password issued to the agent by the service operator.',
      specSection: 'Authentication',
      expectedGenCases: AUTH_GEN_IDS,
      corner: 'a prefix of the right password (AUTH-WRONG sends an unrelated one)',
    },
  },
  {
    name: 'bug-gen-v1-pin-long-correlation-id',
    description:
      'Planted GEN bug: v1 PIN purchases cut a correlationId over 50 characters to 50 and go through; v2 refuses it as the spec says.',
    hooks: {
      onRequest(req) {
        const body = bodyOf(req, ['v1.transaction.pin']);
        if (body !== undefined && typeof body.correlationId === 'string' && body.correlationId.length > 50)
          body.correlationId = body.correlationId.slice(0, 50);
      },
    },
    genBug: {
      rule: 'PIN request: correlationId | string, 1..50 | yes | Unique client id (Limits: correlationId length 1 to 50 characters)',
      specSection: 'Resources and their fields / Request objects (PIN request); Limits',
      expectedGenCases: ['GEN-PIN-LENGTH-V1'],
      corner: 'v1 PIN only (LEN-CORR-51 is a top-up; v2 keeps the rule)',
    },
  },
  {
    name: 'bug-gen-estimated-cost-mixed-case',
    description:
      'Planted GEN bug: estimated cost refuses a currency code written all in lower case, but upper-cases a mixed-case one and answers.',
    hooks: {
      onRequest(req) {
        const body = bodyOf(req, ['v2.transaction.estimated-cost']);
        const code = body?.[CURRENCY];
        if (body !== undefined && typeof code === 'string' && /[a-z]/.test(code) && /[A-Z]/.test(code)) body[CURRENCY] = code.toUpperCase();
      },
    },
    genBug: {
      rule: 'Estimated cost request: transactionCurrencyCode | string or null | no | Destination currency; must be upper case',
      specSection: 'Resources and their fields / Request objects (Estimated cost request (v2))',
      expectedGenCases: ['GEN-ESTIMATED-COST-PATTERN-V2'],
      corner: 'mixed-case codes (CUR-EST-LOWER sends the code all in lower case)',
    },
  },
];
