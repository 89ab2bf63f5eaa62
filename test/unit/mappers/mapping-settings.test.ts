import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYMENT_FORMS, mappingSettingsSchema, normalizeRateKey } from '../../../mappers/invoice/mapping-settings.ts';

function messages(input: unknown): string[] {
  const result = mappingSettingsSchema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('mappingSettingsSchema', () => {
  it('parse({}) gives every default', () => {
    expect(mappingSettingsSchema.parse({})).toEqual({
      transactionDefaults: {
        typeEmission: '01',
        typeDocument: '01',
        natureOperation: '01',
        typeOperation: '1',
        destinationOperation: '1',
        formatCAFE: '3',
        // deliveryCAFE: none, so the code follows cafeDelivery (3 for app_email).
        shippingContainer: '1',
        processGeneration: '1',
        typeSale: '1',
      },
      paymentForms: {
        shopify_payments: '03',
        stripe: '03',
        paypal: '03',
        bogus: '03',
        authorize_net: '03',
        braintree: '03',
        adyen: '03',
        checkout_com: '03',
        gift_card: '07',
        'cash on delivery (cod)': '02',
        cash: '02',
        'pago contra entrega': '02',
        efectivo: '02',
        'bank deposit': '08',
        manual: '08',
        'money order': '08',
        'transferencia bancaria': '08',
        'depósito bancario': '08',
        ach: '08',
        yappy: '08',
      },
      defaultPaymentForm: '03',
      checkoutAttributes: { ruc: 'ruc', dv: 'dv', businessName: 'razon_social', address: 'direccion', locationCode: 'codigo_ubicacion' },
      defaultLocationCode: '8-8-7',
      creditNoteNatureOperation: '11',
      cafeDelivery: 'app_email',
      customerTaxIdMetafield: null,
      includeGiftCards: false,
      includeTips: false,
      taxRateCodes: {},
      shippingDescription: 'Envío',
      shippingCode: 'ENVIO',
      tipDescription: 'Propina',
      tipCode: 'PROPINA',
    });
  });

  it('keeps the defaults of a partly given object', () => {
    const s = mappingSettingsSchema.parse({ transactionDefaults: { typeSale: '4' }, checkoutAttributes: { ruc: ' RUC_cliente ' } });
    expect(s.transactionDefaults).toMatchObject({ typeSale: '4', typeEmission: '01', formatCAFE: '3' });
    expect(s.checkoutAttributes).toEqual({
      ruc: 'RUC_cliente',
      dv: 'dv',
      businessName: 'razon_social',
      address: 'direccion',
      locationCode: 'codigo_ubicacion',
    });
  });

  it("merges the shop's payment table over the defaults, names in lower case", () => {
    const s = mappingSettingsSchema.parse({ paymentForms: { ' Yappy ': '04', 'Tarjeta Clave': '04', gift_card: '06' } });
    expect(s.paymentForms).toEqual({ ...DEFAULT_PAYMENT_FORMS, yappy: '04', 'tarjeta clave': '04', gift_card: '06' });
  });

  it('normalizes tax rate keys and refuses what is not a rate', () => {
    expect(mappingSettingsSchema.parse({ taxRateCodes: { '0.0850': '01', '0.08': '00' } }).taxRateCodes).toEqual({
      '0.085': '01',
      '0.08': '00',
    });
    expect(normalizeRateKey('8.5')).toBeUndefined();
    expect(normalizeRateKey('abc')).toBeUndefined();
    expect(normalizeRateKey(' 0.070 ')).toBe('0.07');
    expect(messages({ taxRateCodes: { '8.5%': '01', '.5': '00', '1.5': '01' } })).toEqual([
      'taxRateCodes.8.5%: "8.5%" is not a tax rate: write it as a decimal between 0 and 1, e.g. 0.085 for 8.5 %',
      'taxRateCodes..5: ".5" is not a tax rate: write it as a decimal between 0 and 1, e.g. 0.085 for 8.5 %',
      'taxRateCodes.1.5: "1.5" is not a tax rate: write it as a decimal between 0 and 1, e.g. 0.085 for 8.5 %',
    ]);
  });

  it('explains every wrong value in words a merchant can act on', () => {
    expect(
      messages({
        transactionDefaults: { typeEmission: '05', formatCAFE: 3 },
        defaultPaymentForm: '10',
        paymentForms: { yappy: 'transfer' },
        taxRateCodes: { '0.085': '07' },
        defaultLocationCode: '8-8-99',
        includeTips: 'yes',
        shippingDescription: 'E',
        shippingCode: '',
        checkoutAttributes: { dv: '' },
      }),
    ).toEqual([
      'transactionDefaults.typeEmission: typeEmission must be one of: 01 (prior authorisation, normal), 02 (prior authorisation, contingency), 03 (later authorisation, normal), 04 (later authorisation, contingency)',
      'transactionDefaults.formatCAFE: formatCAFE must be one of: 1 (no printed invoice), 2 (receipt roll), 3 (letter-size paper)',
      'paymentForms.yappy: the payment form must be one of: 01 (credit), 02 (cash), 03 (credit card), 04 (debit card), 05 (loyalty card), 06 (voucher), 07 (gift card), 08 (bank transfer or deposit), 09 (cheque), 99 (other)',
      'defaultPaymentForm: the payment form must be one of: 01 (credit), 02 (cash), 03 (credit card), 04 (debit card), 05 (loyalty card), 06 (voucher), 07 (gift card), 08 (bank transfer or deposit), 09 (cheque), 99 (other)',
      'checkoutAttributes.dv: the checkout attribute name for the RUC check digit cannot be empty',
      'defaultLocationCode: defaultLocationCode must be a province-district-corregimiento code of the Panama catalogue, e.g. 8-8-7 (Bella Vista, Panamá)',
      'includeTips: includeTips must be true or false',
      'taxRateCodes.0.085: the ITBMS rate code must be one of: 00 (0 %), 01 (7 %), 02 (10 %), 03 (15 %)',
      'shippingDescription: shippingDescription must have at least 2 characters',
      'shippingCode: shippingCode cannot be empty',
    ]);
  });
});
