// The flat v1 SKU record (observed field list) derived from a v2 SKU record.
// v1 prints bounds in the SKU's face value currency, which is also its one supported transaction currency.

import type { DenominationType, Sku, V1Sku } from './types.ts';

/** 'Fixed' when the denomination has one face value, 'Range' when min and max differ. */
export function denominationTypeOf(sku: Sku): DenominationType {
  return sku.min.faceValue === sku.max.faceValue ? 'Fixed' : 'Range';
}

export function toV1Sku(sku: Sku): V1Sku {
  const fixed = denominationTypeOf(sku) === 'Fixed';
  return {
    skuId: sku.skuId,
    productId: sku.productId,
    productName: sku.productName,
    productDescription: sku.productDescription,
    benefitType: sku.benefitType,
    validity: sku.validity,
    faceValue: fixed ? sku.min.faceValue : 0,
    minAmount: sku.min.faceValue,
    maxAmount: sku.max.faceValue,
    discount: sku.discount,
    pricing: fixed ? 'Fixed' : 'Range',
    category: sku.category,
    region: sku.region,
    isSalesTaxCharged: sku.isSalesTaxCharged,
    salesTax: sku.salesTax,
    exchangeRate: sku.exchangeRate,
    currencyCode: sku.min.faceValueCurrency,
    countryCode: sku.countryCode,
    localPhoneNumberLength: sku.localPhoneNumberLength,
    internationalCountryCode: sku.internationalCountryCode.slice(),
    allowDecimal: sku.allowDecimal,
    fee: sku.fee,
    operatorName: sku.operatorName,
    deliveryCurrencyCode: sku.min.deliveryCurrencyCode,
    supportedTransactionCurrencies: [sku.min.faceValueCurrency],
    carrierName: sku.operatorName,
    additionalInformation: sku.additionalInformation,
    loanAmount: sku.loanAmountInFaceValueCurrency,
  };
}
