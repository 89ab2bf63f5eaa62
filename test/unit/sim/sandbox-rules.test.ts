// The sandbox's document rules (pure): every 109, every arithmetic rule of docs/reference/panama-fe.md §5 broken on
// purpose, client rules by type, codes and formats.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatCents, parseCents } from '../../../mappers/fiscal/money.ts';
import { validateSendDocument, type RuleProblem } from '../../../sim/sandbox/document-rules.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures are edited freely

const EXAMPLE: Json = JSON.parse(readFileSync(new URL('../../fixtures/gateway/send-document-example.json', import.meta.url), 'utf8'));
// The example's dateBroadcast is 2026-04-10T09:30:00-05:00; "now" is a few hours later.
const NOW = new Date('2026-04-10T20:00:00Z');

function example(): Json {
  return structuredClone(EXAMPLE);
}

function withChange(change: (request: Json) => void): Json {
  const request = example();
  change(request);
  return request;
}

function check(request: Json, now = NOW): RuleProblem | undefined {
  return validateSendDocument(request, now);
}

function doc(request: Json): Json {
  return request.document;
}

function item(request: Json, n: number): Json {
  return request.document.listItems[n - 1];
}

function totals(request: Json): Json {
  return request.document.totalsSubTotals;
}

function client(request: Json): Json {
  return request.document.dataTransaction.client;
}

/** Recompute every total from the (2-decimal) lines, so only the line under test is wrong or right. */
function retotal(request: Json): Json {
  const t = totals(request);
  const sum = (field: string): number => (request.document.listItems as Json[]).reduce((acc, i) => acc + parseCents(i[field])!, 0);
  const isc = t.totalISC ? parseCents(t.totalISC)! : 0;
  t.totalPriceNet = formatCents(sum('priceItem'));
  t.totalITBMS = formatCents(sum('valueITBMS'));
  t.totalAmountTaxed = formatCents(sum('valueITBMS') + isc);
  t.totalAllItems = formatCents(sum('totalValue'));
  t.totalInvoice = t.totalAllItems;
  t.totalValueReceived = t.totalAllItems;
  t.listFormPayment = [{ formPaymentInvoice: '03', valueFeePaid: t.totalAllItems }];
  t.nroItems = String(request.document.listItems.length);
  return request;
}

function expect201(problem: RuleProblem | undefined, fieldName: string, ...fragments: string[]): void {
  expect(problem, 'expected a 201').toBeDefined();
  expect(problem!.code).toBe('201');
  expect(problem!.fieldName).toBe(fieldName);
  expect(problem!.message.startsWith('Error al procesar solicitud: ')).toBe(true);
  for (const fragment of fragments) expect(problem!.message).toContain(fragment);
}

describe('the example request', () => {
  it('is valid', () => {
    expect(check(example())).toBeUndefined();
  });
});

describe('109: required fields', () => {
  const credentials = ['GW_Company', 'GW_Token', 'Id_Pac', 'Enterprise', 'Company', 'Token'];
  const dataTransaction = [
    'typeEmission',
    'typeDocument',
    'numberDocumentFiscal',
    'pointBillingFiscal',
    'dateBroadcast',
    'natureOperation',
    'typeOperation',
    'destinationOperation',
    'formatCAFE',
    'deliveryCAFE',
    'shippingContainer',
    'processGeneration',
    'typeSale',
  ];
  const itemFields = [
    'description',
    'code',
    'amount',
    'priceUnit',
    'priceUnitDiscount',
    'priceItem',
    'rateITBMS',
    'valueITBMS',
    'totalValue',
  ];
  const totalsFields = [
    'totalPriceNet',
    'totalITBMS',
    'totalAmountTaxed',
    'totalInvoice',
    'totalValueReceived',
    'timePayment',
    'nroItems',
    'totalAllItems',
  ];
  const cases: [string, (r: Json) => Json][] = [
    ...credentials.map((f): [string, (r: Json) => Json] => [f, (r) => r]),
    ['identifierControlShipping', (r) => r],
    ['environment', (r) => r],
    ['codeBranchIssuer', doc],
    ...dataTransaction.map((f): [string, (r: Json) => Json] => [f, (r) => r.document.dataTransaction]),
    ['typeClientEB', client],
    ['country', client],
    ...itemFields.map((f): [string, (r: Json) => Json] => [f, (r) => item(r, 2)]),
    ...totalsFields.map((f): [string, (r: Json) => Json] => [f, totals]),
    ['formPaymentInvoice', (r) => totals(r).listFormPayment[0]],
    ['valueFeePaid', (r) => totals(r).listFormPayment[0]],
  ];

  it.each(cases)('%s missing → 109 "field %s is required"', (field, container) => {
    const expected = { code: '109', message: `field ${field} is required`, fieldName: field };
    expect(check(withChange((r) => delete container(r)[field]))).toEqual(expected);
    expect(check(withChange((r) => (container(r)[field] = '')))).toEqual(expected);
    expect(check(withChange((r) => (container(r)[field] = null)))).toEqual(expected);
  });

  it('an empty numberDocumentFiscal gives the spec message exactly', () => {
    const problem = check(withChange((r) => (r.document.dataTransaction.numberDocumentFiscal = '')));
    expect(problem?.message).toBe('field numberDocumentFiscal is required');
  });

  it('no items, no payments, no document parts → 109', () => {
    expect(check(withChange((r) => (r.document.listItems = [])))).toEqual({
      code: '109',
      message: 'field listItems is required',
      fieldName: 'listItems',
    });
    expect(check(withChange((r) => (totals(r).listFormPayment = [])))).toEqual({
      code: '109',
      message: 'field listFormPayment is required',
      fieldName: 'listFormPayment',
    });
    expect(check(withChange((r) => delete r.document))?.message).toBe('field document is required');
    expect(check(withChange((r) => delete r.document.dataTransaction))?.message).toBe('field dataTransaction is required');
    expect(check(withChange((r) => delete r.document.dataTransaction.client))?.message).toBe('field client is required');
    expect(check(withChange((r) => delete r.document.totalsSubTotals))?.message).toBe('field totalsSubTotals is required');
    expect(check([] as unknown as Json)?.code).toBe('109');
  });

  it('totalISC may be empty or absent; optional client and GTIN fields may be absent', () => {
    expect(check(withChange((r) => delete totals(r).totalISC))).toBeUndefined();
    expect(
      check(
        withChange((r) => {
          for (const f of ['businessName', 'address', 'codeLocation', 'province', 'district', 'correction', 'telephone1', 'email1']) {
            delete client(r)[f];
          }
        }),
      ),
    ).toBeUndefined();
  });

  it.each(['01', '03'])('client type %s needs typeTaxpayer, numberRUC, digitCheckRUC, businessName, address', (type) => {
    for (const field of ['typeTaxpayer', 'numberRUC', 'digitCheckRUC', 'businessName', 'address']) {
      const problem = check(
        withChange((r) => {
          Object.assign(client(r), taxpayerClient(type));
          delete client(r)[field];
        }),
      );
      expect(problem).toEqual({ code: '109', message: `field ${field} is required`, fieldName: field });
    }
  });

  it('reports the first missing field in document order', () => {
    const problem = check(
      withChange((r) => {
        delete r.Token;
        delete r.document.dataTransaction.numberDocumentFiscal;
      }),
    );
    expect(problem?.message).toBe('field Token is required');
  });

  it('a field of the wrong JSON type is a 201 naming it', () => {
    expect201(check(withChange((r) => (item(r, 1).amount = 2))), 'amount', 'tipo inválido', 'amount');
  });
});

function taxpayerClient(type: string): Json {
  return {
    typeClientEB: type,
    typeTaxpayer: '2',
    numberRUC: '155596713-2-2015',
    digitCheckRUC: '59',
    businessName: 'Distribuidora Ejemplo, S.A.',
    address: 'Calle 50, Obarrio',
  };
}

describe('201: arithmetic rules of §5, each broken on purpose', () => {
  it('rule 1 (2051): discount must be below the unit price', () => {
    const problem = check(withChange((r) => (item(r, 1).priceUnitDiscount = '25.00')));
    expect201(problem, 'priceUnitDiscount', 'regla 2051', '§5 regla 1', 'item 1', 'priceUnitDiscount 25.00', 'priceUnit 25.00');
  });

  it('rule 1: a discount on a zero-priced item is rejected, no discount on it is fine', () => {
    const zero = (discount: string) =>
      withChange((r) => {
        Object.assign(item(r, 2), { priceUnit: '0.00', priceUnitDiscount: discount, priceItem: '0.00', totalValue: '0.00' });
        retotal(r);
      });
    expect(check(zero('0.00'))).toBeUndefined();
    expect201(check(zero('0.50')), 'priceUnitDiscount', 'regla 2051', 'item 2');
  });

  it('rule 2 (2053): priceItem = amount × (priceUnit − priceUnitDiscount), exactly', () => {
    const problem = check(withChange((r) => (item(r, 2).priceItem = '12.01')));
    expect(problem).toEqual({
      code: '201',
      fieldName: 'priceItem',
      message:
        'Error al procesar solicitud: regla 2053 (§5 regla 2): item 2: priceItem 12.01 != amount × (priceUnit − priceUnitDiscount) = 12.00',
    });
  });

  it('rule 2 is exact decimal arithmetic: 1.5 × 0.333333 = 0.4999995 is not 0.50, 3 × 0.10 is 0.30', () => {
    const half = check(withChange((r) => Object.assign(item(r, 2), { amount: '1.5', priceUnit: '0.333333', priceItem: '0.50' })));
    expect201(half, 'priceItem', 'regla 2053', 'item 2', '= 0.4999995');
    const tenths = withChange((r) => {
      Object.assign(item(r, 2), { amount: '3', priceUnit: '0.10', priceItem: '0.30', valueITBMS: '0.00', totalValue: '0.30' });
      retotal(r);
    });
    expect(check(tenths)).toBeUndefined();
  });

  it('rule 2 accepts item amounts with up to 6 decimals when they multiply out exactly', () => {
    const request = withChange((r) => {
      Object.assign(item(r, 2), { amount: '8', priceUnit: '1.062500', priceItem: '8.500000', valueITBMS: '0.00', totalValue: '8.500000' });
      retotal(r);
    });
    expect(check(request)).toBeUndefined();
  });

  it('rule 3 (2152): valueITBMS within ±0.01 of priceItem × rate', () => {
    // 45.00 × 7 % = 3.15: 3.16 is inside the tolerance, 3.17 is not.
    const inside = withChange((r) => {
      Object.assign(item(r, 1), { valueITBMS: '3.16', totalValue: '48.16' });
      retotal(r);
    });
    expect(check(inside)).toBeUndefined();
    const outside = check(withChange((r) => Object.assign(item(r, 1), { valueITBMS: '3.17', totalValue: '48.17' })));
    expect201(outside, 'valueITBMS', 'regla 2152', '§5 regla 3', 'item 1', 'valueITBMS 3.17', '7%', '= 3.15');
    const exempt = check(withChange((r) => Object.assign(item(r, 2), { valueITBMS: '0.84', totalValue: '12.84' })));
    expect201(exempt, 'valueITBMS', 'regla 2152', 'item 2', '0%');
  });

  it('rule 3 uses the rate of the code: 10 % and 15 %', () => {
    const at = (rate: string, value: string) =>
      withChange((r) => {
        Object.assign(item(r, 2), { rateITBMS: rate, valueITBMS: value, totalValue: formatCents(1200 + parseCents(value)!) });
        retotal(r);
      });
    expect(check(at('02', '1.20'))).toBeUndefined();
    expect(check(at('03', '1.80'))).toBeUndefined();
    expect201(check(at('03', '1.20')), 'valueITBMS', 'regla 2152', '15%');
  });

  it('rule 4 (2056): totalValue = priceItem + valueITBMS exactly', () => {
    const problem = check(withChange((r) => (item(r, 1).totalValue = '48.16')));
    expect201(problem, 'totalValue', 'regla 2056', '§5 regla 4', 'item 1', 'totalValue 48.16', '= 48.15');
  });

  it('rule 5 (2500): totalPriceNet = Σ priceItem', () => {
    expect201(
      check(withChange((r) => (totals(r).totalPriceNet = '57.01'))),
      'totalPriceNet',
      'regla 2500',
      '§5 regla 5',
      '57.01',
      '= 57.00',
    );
  });

  it('rule 6 (2501): totalITBMS = Σ valueITBMS', () => {
    expect201(check(withChange((r) => (totals(r).totalITBMS = '3.16'))), 'totalITBMS', 'regla 2501', '§5 regla 6', '= 3.15');
  });

  it('rule 7 (2503): totalAmountTaxed is the tax total (totalITBMS + totalISC), not the taxable base', () => {
    expect201(check(withChange((r) => (totals(r).totalAmountTaxed = '57.00'))), 'totalAmountTaxed', 'regla 2503', '§5 regla 7', '= 3.15');
    const withIsc = (taxed: string) => withChange((r) => Object.assign(totals(r), { totalISC: '1.00', totalAmountTaxed: taxed }));
    expect(check(withIsc('4.15'))).toBeUndefined();
    expect201(check(withIsc('3.15')), 'totalAmountTaxed', 'regla 2503', 'totalITBMS + totalISC', '= 4.15');
  });

  it('rule 8 (2514): totalAllItems = Σ totalValue', () => {
    expect201(check(withChange((r) => (totals(r).totalAllItems = '60.14'))), 'totalAllItems', 'regla 2514', '§5 regla 8', '= 60.15');
  });

  it('rule 9 (2507): totalInvoice = totalAllItems', () => {
    expect201(check(withChange((r) => (totals(r).totalInvoice = '60.16'))), 'totalInvoice', 'regla 2507', '§5 regla 9', '= 60.15');
  });

  it('rule 10 (2510): totalValueReceived = Σ valueFeePaid', () => {
    expect201(
      check(withChange((r) => (totals(r).totalValueReceived = '60.00'))),
      'totalValueReceived',
      'regla 2510',
      '§5 regla 10',
      '= 60.15',
    );
    const split = withChange(
      (r) =>
        (totals(r).listFormPayment = [
          { formPaymentInvoice: '07', valueFeePaid: '10.00' },
          { formPaymentInvoice: '03', valueFeePaid: '50.15' },
        ]),
    );
    expect(check(split)).toBeUndefined();
    const short = withChange((r) => (totals(r).listFormPayment[0].valueFeePaid = '60.10'));
    expect201(check(short), 'totalValueReceived', 'regla 2510', '= 60.10');
  });

  it('rule 12 (2513): nroItems = number of items, 1 to 1000', () => {
    expect201(check(withChange((r) => (totals(r).nroItems = '3'))), 'nroItems', 'regla 2513', '§5 regla 12', 'nroItems 3', '= 2');
    const many = withChange((r) => {
      r.document.listItems = Array.from({ length: 1001 }, (_, i) => ({
        ...item(EXAMPLE, 2),
        description: `Libro ${i + 1}`,
        code: `LIB-${i + 1}`,
      }));
      retotal(r);
    });
    expect201(check(many), 'listItems', 'regla 2001', '§5 regla 12', '1001');
  });

  it('rule 14 (2000): quantity > 0 and description 2–500 characters', () => {
    expect201(check(withChange((r) => (item(r, 1).amount = '0'))), 'amount', 'regla 2000', '§5 regla 14', 'item 1');
    expect201(check(withChange((r) => (item(r, 2).description = 'X'))), 'description', 'regla 2000', 'item 2', 'tiene 1');
    expect201(check(withChange((r) => (item(r, 2).description = 'é'.repeat(501)))), 'description', 'regla 2000', 'tiene 501');
    expect(check(withChange((r) => (item(r, 2).description = 'é'.repeat(500))))).toBeUndefined();
  });

  it('reports the first broken rule: an item rule before a totals rule', () => {
    const problem = check(
      withChange((r) => {
        item(r, 2).priceItem = '12.50';
        totals(r).totalPriceNet = '99.00';
      }),
    );
    expect201(problem, 'priceItem', 'regla 2053', 'item 2');
  });
});

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
