// The shape of an operation's input rule: where each parameter and body field of a valid request comes from (a
// catalog SKU, a number plan, a setting, or a field of an earlier transaction's result). Types only: a leaf module.

import type { CategoryName } from './categories.ts';

/** Category names of the spec's catalog (api/categories.ts). */
export type InputCategory = CategoryName;

/** Values the spec does not give, from the run's settings (conformance settings, load `data`). */
export type InputSetting = 'billpayAccountNumber' | 'simNumber' | 'zipCode';

/** Fields of a transaction's result a later read takes, read through the field mapping (`fieldMapping.transaction`). */
export type ResultField = 'transactionId' | 'esimIccid';

/**
 * Where one value comes from:
 * - `sku.skuId`, `sku.productId`, `sku.countryCode`: the rule's SKU (see `InputRule.sku`);
 * - `sku.amount`: an amount the SKU's bounds accept; `sku.currency`: the currency it is in, when not the wallet's
 *   (a SKU whose amount needs a currency is not used by a rule that has no field for it);
 * - `mobile`: a fresh valid number of the SKU's country (of a lookup country when the rule has no SKU);
 * - `settings.<name>`: a setting; `new.correlationId`: a fresh correlationId;
 * - `{ value }`: a constant; `{ from, field }`: a link to an earlier transaction of the same version, schemathesis-style
 *   `param ← purpose.resultField` (`from: '*'`: any charging write; `field: 'correlationId'`: the id it was sent with).
 */
export type InputSource =
  | 'sku.skuId'
  | 'sku.productId'
  | 'sku.countryCode'
  | 'sku.amount'
  | 'sku.currency'
  | 'mobile'
  | `settings.${InputSetting}`
  | 'new.correlationId'
  | { readonly value: string | number }
  | InputLink;

export interface InputLink {
  /** The catalog purpose of the write whose result is read, or '*' for any charging write. */
  readonly from: string;
  readonly field: ResultField | 'correlationId';
}

/** Which catalog SKU a request is built around. */
export interface SkuChoice {
  /** The SKU's category (gift cards come from the gift card list), or any SKU of the catalog. */
  readonly category: InputCategory | 'any';
  /** Only SKUs of the spec's sandbox lookup countries (JM, IN, PK, MX). */
  readonly lookupCountry?: boolean;
  /** Prefer SKUs flagged `requireFetchBundle` (the products whose bundles are read per number). */
  readonly preferBundles?: boolean;
}

/** Where an operation's inputs come from. Every required parameter and required body field has a source. */
export interface InputRule {
  readonly sku?: SkuChoice;
  /** Path, query and header parameters by the catalog's name (the catalog says where each goes). */
  readonly params?: Readonly<Record<string, InputSource>>;
  /** Optional parameters a load run adds half the time, for variety (filters, paging, Accept-Language). */
  readonly filters?: Readonly<Record<string, InputSource>>;
  /** Body fields of a write (required ones, and optional ones worth sending). */
  readonly body?: Readonly<Record<string, InputSource>>;
  /**
   * How many different inputs a sampling run (drift's baseline, migrate's pairs) sends, when the catalog offers them:
   * default 4 for a read, 1 for a write (each charges money, and migrate sends it again for its latency).
   */
  readonly samples?: number;
}
