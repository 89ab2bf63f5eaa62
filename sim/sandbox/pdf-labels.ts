// What the codes of a document mean, as its PDF prints them (docs/reference/panama-fe.md §3.3, §3.6, §3.7, §3.9, §3.10).

export const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  '01': 'Factura de operación interna',
  '02': 'Factura de importación',
  '03': 'Factura de exportación',
  '04': 'Nota de crédito referente a FE',
  '05': 'Nota de débito referente a FE',
  '06': 'Nota de crédito genérica',
  '07': 'Nota de débito genérica',
  '08': 'Factura de zona franca',
  '09': 'Reembolso',
  '10': 'Factura de operación extranjera',
};
export const CLIENT_TYPES: Readonly<Record<string, string>> = {
  '01': 'Contribuyente',
  '02': 'Consumidor final',
  '03': 'Gobierno',
  '04': 'Extranjero',
};
export const PAYMENT_FORMS: Readonly<Record<string, string>> = {
  '01': 'Crédito',
  '02': 'Contado',
  '03': 'Tarjeta de crédito',
  '04': 'Tarjeta de débito',
  '05': 'Tarjeta de fidelización',
  '06': 'Vale',
  '07': 'Tarjeta de regalo',
  '08': 'Transferencia / depósito',
  '09': 'Cheque',
  '99': 'Otro',
};
export const ITBMS_RATES: Readonly<Record<string, string>> = { '00': '0%', '01': '7%', '02': '10%', '03': '15%' };
/** The province numbers that open a location code (§3.7). */
export const PROVINCES: Readonly<Record<string, string>> = {
  '1': 'Bocas del Toro',
  '2': 'Coclé',
  '3': 'Colón',
  '4': 'Chiriquí',
  '5': 'Darién',
  '6': 'Herrera',
  '7': 'Los Santos',
  '8': 'Panamá',
  '9': 'Veraguas',
  '10': 'Comarca Guna Yala',
  '11': 'Comarca Emberá',
  '12': 'Comarca Ngäbe-Buglé',
  '13': 'Panamá Oeste',
};
