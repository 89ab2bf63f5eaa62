// The sandbox's document rules (pure): the example request, every 109, every arithmetic rule of
// docs/reference/panama-fe.md §5 broken on purpose.
import { describe, expect, it } from 'vitest';
import { formatCents, parseCents } from '../../../mappers/fiscal/money.ts';
import { example, withChange, check, expect201, client, item, totals, taxpayerClient } from '../../support/sandbox-rule-checks.ts';
import { EXAMPLE } from '../../support/sandbox-requests.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures are edited freely

function doc(request: Json): Json {
  return request.document;
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
