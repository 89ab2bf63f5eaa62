// The sandbox's document rules (pure): client rules by type, codes and formats, and only the gateway's fields.
import { describe, expect, it } from 'vitest';
import { withChange, check, expect201, client, item, totals, taxpayerClient } from '../../support/sandbox-rule-checks.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures are edited freely

describe('201: client by type', () => {
  it('01 contribuyente with a valid RUC and DV is accepted; 03 gobierno too', () => {
    expect(check(withChange((r) => Object.assign(client(r), taxpayerClient('01'))))).toBeUndefined();
    expect(check(withChange((r) => Object.assign(client(r), taxpayerClient('03'))))).toBeUndefined();
  });

  it('01 with a wrong check digit is rejected naming digitCheckRUC', () => {
    const problem = check(withChange((r) => Object.assign(client(r), taxpayerClient('01'), { digitCheckRUC: '30' })));
    expect201(problem, 'digitCheckRUC', 'regla 1601', 'digitCheckRUC 30', '155596713-2-2015');
  });

  it('01 with a malformed DV or RUC is rejected', () => {
    expect201(
      check(withChange((r) => Object.assign(client(r), taxpayerClient('01'), { digitCheckRUC: '5' }))),
      'digitCheckRUC',
      'formato inválido',
    );
    expect201(
      check(withChange((r) => Object.assign(client(r), taxpayerClient('01'), { numberRUC: 'ABC' }))),
      'numberRUC',
      'regla 1601',
      'numberRUC "ABC"',
    );
  });

  it('a natural RUC form whose DV rule the reference leaves to a secondary source is not judged', () => {
    // A prefixed cédula with a 4-digit folio: docs/reference/panama-fe.md §4.1 states no padding for it.
    const longFolio = { ...taxpayerClient('01'), typeTaxpayer: '1', numberRUC: 'E-1234-12770', digitCheckRUC: '00' };
    expect(check(withChange((r) => Object.assign(client(r), longFolio)))).toBeUndefined();
    // The same prefix with a 3-digit folio is stated, so its DV is checked: E-123-12770 is not 00.
    expect201(
      check(withChange((r) => Object.assign(client(r), { ...longFolio, numberRUC: 'E-123-12770' }))),
      'digitCheckRUC',
      'regla 1601',
      'E-123-12770',
    );
  });

  it('01 name and address lengths', () => {
    expect201(
      check(withChange((r) => Object.assign(client(r), taxpayerClient('01'), { businessName: 'A' }))),
      'businessName',
      'businessName',
      '2 a 200',
    );
    expect201(
      check(withChange((r) => Object.assign(client(r), taxpayerClient('01'), { businessName: 'A'.repeat(201) }))),
      'businessName',
      'tiene 201',
    );
    expect201(check(withChange((r) => Object.assign(client(r), taxpayerClient('01'), { address: 'Cl 5' }))), 'address', '5 a 100');
  });

  it('01 with an unknown typeTaxpayer is rejected', () => {
    expect201(
      check(withChange((r) => Object.assign(client(r), taxpayerClient('01'), { typeTaxpayer: '3' }))),
      'typeTaxpayer',
      'código inválido',
      '"3"',
    );
  });

  it('02 consumidor final needs nothing beyond type and country', () => {
    const request = withChange((r) => (r.document.dataTransaction.client = { typeClientEB: '02', country: 'PA' }));
    expect(check(request)).toBeUndefined();
  });

  it('04 extranjero must not carry typeTaxpayer, numberRUC or digitCheckRUC', () => {
    expect(
      check(withChange((r) => (r.document.dataTransaction.client = { typeClientEB: '04', businessName: 'John Smith', country: 'PA' }))),
    ).toBeUndefined();
    for (const [field, value] of [
      ['typeTaxpayer', '1'],
      ['numberRUC', '8-442-445'],
      ['digitCheckRUC', '08'],
    ]) {
      const problem = check(
        withChange((r) => (r.document.dataTransaction.client = { typeClientEB: '04', country: 'PA', [field!]: value })),
      );
      expect201(problem, field!, 'typeClientEB 04', field!);
    }
  });

  it('an unknown client type is rejected', () => {
    expect201(check(withChange((r) => (client(r).typeClientEB = '05'))), 'typeClientEB', 'código inválido', '"05"');
  });

  it('country must be PA for destinationOperation 1 and not PA for 2', () => {
    expect201(check(withChange((r) => (client(r).country = 'US'))), 'country', 'regla 1611');
    expect201(check(withChange((r) => (r.document.dataTransaction.destinationOperation = '2'))), 'country', 'regla 1612');
  });
});

describe('201: codes and formats', () => {
  const cases: [string, (r: Json) => void, string][] = [
    ['environment 3', (r) => (r.environment = '3'), 'environment'],
    ['typeEmission 05', (r) => (r.document.dataTransaction.typeEmission = '05'), 'typeEmission'],
    ['typeDocument 11', (r) => (r.document.dataTransaction.typeDocument = '11'), 'typeDocument'],
    ['typeDocument 1', (r) => (r.document.dataTransaction.typeDocument = '1'), 'typeDocument'],
    ['natureOperation 05', (r) => (r.document.dataTransaction.natureOperation = '05'), 'natureOperation'],
    ['typeOperation 3', (r) => (r.document.dataTransaction.typeOperation = '3'), 'typeOperation'],
    ['destinationOperation 3', (r) => (r.document.dataTransaction.destinationOperation = '3'), 'destinationOperation'],
    ['formatCAFE 4', (r) => (r.document.dataTransaction.formatCAFE = '4'), 'formatCAFE'],
    ['deliveryCAFE 0', (r) => (r.document.dataTransaction.deliveryCAFE = '0'), 'deliveryCAFE'],
    ['shippingContainer 3', (r) => (r.document.dataTransaction.shippingContainer = '3'), 'shippingContainer'],
    ['processGeneration 6', (r) => (r.document.dataTransaction.processGeneration = '6'), 'processGeneration'],
    ['typeSale 5', (r) => (r.document.dataTransaction.typeSale = '5'), 'typeSale'],
    ['rateITBMS 07', (r) => (item(r, 1).rateITBMS = '07'), 'rateITBMS'],
    ['rateITBMS 1', (r) => (item(r, 1).rateITBMS = '1'), 'rateITBMS'],
    ['formPaymentInvoice 10', (r) => (totals(r).listFormPayment[0].formPaymentInvoice = '10'), 'formPaymentInvoice'],
    ['timePayment 4', (r) => (totals(r).timePayment = '4'), 'timePayment'],
  ];
  it.each(cases)('code outside the table: %s', (_name, change, field) => {
    expect201(check(withChange(change)), field, 'código inválido', field, 'no está en la tabla');
  });

  it('accepts every payment code 01–09 and 99 and every time of payment 1–3', () => {
    for (const code of ['01', '02', '03', '04', '05', '06', '07', '08', '09', '99']) {
      expect(check(withChange((r) => (totals(r).listFormPayment[0].formPaymentInvoice = code)))).toBeUndefined();
    }
    for (const code of ['1', '2', '3']) expect(check(withChange((r) => (totals(r).timePayment = code)))).toBeUndefined();
  });

  const formats: [string, (r: Json) => void, string][] = [
    ['numberDocumentFiscal of 9 digits', (r) => (r.document.dataTransaction.numberDocumentFiscal = '000000001'), 'numberDocumentFiscal'],
    ['numberDocumentFiscal all zeros', (r) => (r.document.dataTransaction.numberDocumentFiscal = '0000000000'), 'numberDocumentFiscal'],
    ['numberDocumentFiscal with a letter', (r) => (r.document.dataTransaction.numberDocumentFiscal = '000000000A'), 'numberDocumentFiscal'],
    ['pointBillingFiscal 000', (r) => (r.document.dataTransaction.pointBillingFiscal = '000'), 'pointBillingFiscal'],
    ['pointBillingFiscal of 2 digits', (r) => (r.document.dataTransaction.pointBillingFiscal = '01'), 'pointBillingFiscal'],
    ['codeBranchIssuer of 5 characters', (r) => (r.document.codeBranchIssuer = '00001'), 'codeBranchIssuer'],
    ['codeBranchIssuer with a hyphen', (r) => (r.document.codeBranchIssuer = '00-1'), 'codeBranchIssuer'],
    ['dateBroadcast without offset', (r) => (r.document.dataTransaction.dateBroadcast = '2026-04-10T09:30:00'), 'dateBroadcast'],
    ['dateBroadcast with Z', (r) => (r.document.dataTransaction.dateBroadcast = '2026-04-10T09:30:00Z'), 'dateBroadcast'],
    ['dateBroadcast with fractions', (r) => (r.document.dataTransaction.dateBroadcast = '2026-04-10T09:30:00.123-05:00'), 'dateBroadcast'],
    ['dateBroadcast 30 February', (r) => (r.document.dataTransaction.dateBroadcast = '2026-02-30T09:30:00-05:00'), 'dateBroadcast'],
    ['dateBroadcast hour 24', (r) => (r.document.dataTransaction.dateBroadcast = '2026-04-10T24:00:00-05:00'), 'dateBroadcast'],
    ['total with 3 decimals', (r) => (totals(r).totalPriceNet = '57.000'), 'totalPriceNet'],
    ['total without decimals', (r) => (totals(r).totalInvoice = '60'), 'totalInvoice'],
    ['negative total', (r) => (totals(r).totalInvoice = '-60.15'), 'totalInvoice'],
    ['totalISC with 1 decimal', (r) => (totals(r).totalISC = '0.0'), 'totalISC'],
    ['valueFeePaid with 1 decimal', (r) => (totals(r).listFormPayment[0].valueFeePaid = '60.1'), 'valueFeePaid'],
    ['item amount with 1 decimal', (r) => (item(r, 1).priceUnit = '25.0'), 'priceUnit'],
    ['item amount with 7 decimals', (r) => (item(r, 1).priceItem = '45.0000000'), 'priceItem'],
    ['item amount with thousands separator', (r) => (item(r, 1).totalValue = '1,048.15'), 'totalValue'],
    ['quantity with 7 decimals', (r) => (item(r, 1).amount = '2.0000000'), 'amount'],
    ['negative quantity', (r) => (item(r, 1).amount = '-2'), 'amount'],
    ['e-mail without @', (r) => (client(r).email1 = 'maria.example.com'), 'email1'],
    ['e-mail with a space', (r) => (client(r).email1 = 'maria perez@example.com'), 'email1'],
    ['codeLocation with two parts', (r) => (client(r).codeLocation = '8-8'), 'codeLocation'],
    ['codeLocation zero-padded', (r) => (client(r).codeLocation = '08-08-07'), 'codeLocation'],
    ['country in lower case', (r) => (client(r).country = 'pa'), 'country'],
    ['country of 3 letters', (r) => (client(r).country = 'PAN'), 'country'],
  ];
  it.each(formats)('format: %s', (_name, change, field) => {
    const problem = check(withChange(change));
    expect201(problem, field, field);
    expect(problem!.message).toMatch(/formato inválido|longitud inválida/);
  });

  it('accepts quantities with 0 to 6 decimals', () => {
    for (const amount of ['2', '2.0', '2.000000']) {
      expect(check(withChange((r) => (item(r, 1).amount = amount)))).toBeUndefined();
    }
  });

  it('dateBroadcast: up to 2 days in the future is fine, more is rejected (1520)', () => {
    const at = (date: string) => withChange((r) => (r.document.dataTransaction.dateBroadcast = date));
    expect(check(at('2026-04-12T14:59:59-05:00'))).toBeUndefined(); // NOW + 47:59:59
    expect201(check(at('2026-04-12T15:00:01-05:00')), 'dateBroadcast', 'regla 1520', '2 días');
    expect(check(at('2025-01-01T00:00:00-05:00'))).toBeUndefined(); // the past is fine
    expect(check(at('2026-04-10T14:30:00+00:00'))).toBeUndefined(); // any offset is a valid instant
  });

  it('more than 10 payment forms is rejected', () => {
    const request = withChange(
      (r) =>
        (totals(r).listFormPayment = [
          ...Array.from({ length: 10 }, () => ({ formPaymentInvoice: '02', valueFeePaid: '6.00' })),
          { formPaymentInvoice: '02', valueFeePaid: '0.15' },
        ]),
    );
    expect201(check(request), 'listFormPayment', 'máximo es 10');
  });
});

describe('201: only the gateway fields', () => {
  const cases: [string, (r: Json) => void, string, string][] = [
    ['a misspelt optional client field', (r) => (client(r).emial1 = 'a@b.pa'), 'emial1', 'document.dataTransaction.client.emial1'],
    ['an item field the spec does not name', (r) => (item(r, 2).unitMeasure = 'und'), 'unitMeasure', 'document.listItems.1.unitMeasure'],
    [
      'a totals field the spec does not name',
      (r) => (totals(r).totalDiscount = '0.00'),
      'totalDiscount',
      'document.totalsSubTotals.totalDiscount',
    ],
    ['a top-level field the spec does not name', (r) => (r.documentType = '01'), 'documentType', 'documentType'],
  ];
  it.each(cases)('%s is refused by name', (_name, change, field, path) => {
    expect201(check(withChange(change)), field, 'campo desconocido', `${path} no es un campo de la pasarela`);
  });

  it('an optional field sent as null is refused as a wrong type', () => {
    expect201(check(withChange((r) => (client(r).telephone1 = null))), 'telephone1', 'tipo inválido');
  });
});
