// The settings form's problems in the reader's language: Spanish from the catalogue, English as the schema says.
import { describe, expect, it } from 'vitest';
import { settingsProblemsIn } from '../../../src/admin/settings-problems.ts';
import { credentialsInputSchema, settingsInputSchema } from '../../../src/shops/shop-settings.ts';

const bad = {
  environment: 'real',
  branchCode: '12',
  billingPoint: '000',
  // A key that is not a location id: zod then leaves its value unchecked.
  locations: { abc: { branchCode: '0001', billingPoint: '1' } },
  accountantEmail: 'contador',
  buyerRequests: { enabled: 'si', days: 400 },
  mapping: {
    defaultLocationCode: '99-9-9',
    customerTaxIdMetafield: { namespace: 'custom', key: ' ' },
    taxRateCodes: { ocho: '01' },
    shippingDescription: 'E',
    transactionDefaults: { typeDocument: '04' },
  },
  colour: 'blue',
};

function problems(language: 'es' | 'en') {
  const parsed = settingsInputSchema.safeParse(bad);
  if (parsed.success) throw new Error('the settings should not be valid');
  return Object.fromEntries(settingsProblemsIn(parsed.error, language).map((p) => [p.path, p.message]));
}

describe('settings problems', () => {
  it('in Spanish: each setting told in Spanish, by the path the page places it at', () => {
    expect(problems('es')).toEqual({
      environment: 'Debe ser uno de estos valores: pruebas, produccion.',
      branchCode: 'El código de sucursal son 4 letras o dígitos («0000» es la casa matriz).',
      billingPoint: 'El punto de facturación son 3 dígitos, y no puede ser 000.',
      'locations.abc': '«abc» no es una ubicación de Shopify: use su número.',
      accountantEmail: 'No es una dirección de correo electrónico (p. ej. contador@ejemplo.com).',
      'buyerRequests.enabled': 'Debe ser sí o no.',
      'buyerRequests.days': 'Debe ser un número entero de días, de 1 a 365.',
      'mapping.defaultLocationCode': 'No es un código provincia-distrito-corregimiento del catálogo de la DGI (p. ej. 8-8-7).',
      'mapping.customerTaxIdMetafield.key': 'Escriba el espacio de nombres y la clave del metacampo, o deje ambos vacíos.',
      'mapping.taxRateCodes.ocho': '«ocho» no es una tasa de impuesto: escríbala como decimal entre 0 y 1, p. ej. 0.085 para 8,5 %.',
      'mapping.shippingDescription': 'Debe tener al menos 2 caracteres.',
      'mapping.transactionDefaults.typeDocument':
        'Ese tipo de documento no es una factura de venta: un pedido se factura con 01 (factura de operación interna).',
      settings: '«colour» no es un ajuste: revise cómo está escrito (docs/merchants.md lista todos los ajustes).',
    });
  });

  it('in English: the schema’s own words, as the API and the CLI always said', () => {
    const en = problems('en');
    expect(en.accountantEmail).toBe('accountantEmail must be an e-mail address, e.g. contador@example.com');
    expect(en['buyerRequests.days']).toBe('buyerRequests.days must be at most 365');
    expect(en.settings).toBe('"colour" is not a setting: check its spelling (docs/merchants.md lists every setting)');
  });

  it('a missing credential, and an unknown key inside a section, in Spanish', () => {
    const credentials = credentialsInputSchema.safeParse({ GW_Company: 'a', GW_Token: 'b', Id_Pac: 'c', Enterprise: 'd', Company: 'e' });
    expect(credentials.success).toBe(false);
    expect(settingsProblemsIn(credentials.error!, 'es', ['credentials'])).toEqual([
      { path: 'credentials.Token', message: 'Escriba este dato de acceso al proveedor (Token).' },
    ]);
    const nested = settingsInputSchema.safeParse({ buyerRequests: { dias: 3 } });
    expect(settingsProblemsIn(nested.error!, 'es')).toEqual([
      {
        path: 'buyerRequests',
        message: '«dias» no es un ajuste de buyerRequests: revise cómo está escrito (docs/merchants.md lista todos los ajustes).',
      },
    ]);
  });
});
