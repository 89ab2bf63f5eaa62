// One taxpayer client for the correction tests: as the merchant corrects it (docs/merchants.md's client file says the
// same), and as the gateway then receives it.

/** 155596713-2-2015 has the check digit 59; a juridical person (typeTaxpayer 2). */
export const TAXPAYER_CORRECTION = {
  type: 'taxpayer',
  ruc: '155596713-2-2015',
  dv: '59',
  name: 'Ferretería Central, S.A.',
  address: 'Calle 50, Obarrio',
  locationCode: '8-8-7',
  email: 'compras@ferreteria.example',
} as const;

export const TAXPAYER_CLIENT_BLOCK = {
  typeClientEB: '01',
  typeTaxpayer: '2',
  numberRUC: '155596713-2-2015',
  digitCheckRUC: '59',
  businessName: 'Ferretería Central, S.A.',
  address: 'Calle 50, Obarrio',
  codeLocation: '8-8-7',
  province: 'PANAMA',
  district: 'PANAMA',
  correction: 'BELLA VISTA',
  email1: 'compras@ferreteria.example',
  country: 'PA',
} as const;
