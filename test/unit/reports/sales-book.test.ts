import { describe, expect, it } from 'vitest';
import { csvText } from '../../../src/reports/sales-book-csv.ts';
import { salesBookRow } from '../../../src/reports/sales-book.ts';

const HEADER =
  'fecha,tipo,numero,cufe,cliente_tipo,ruc,dv,cliente,base_exenta,base_7,itbms_7,base_10,itbms_10,base_15,itbms_15,total,cufe_referenciado';

function doc(documentType: string, name: string, items: [string, string, string][], total: string, reference?: string) {
  return {
    documentType,
    branchCode: '0000',
    billingPoint: '001',
    fiscalNumber: 42,
    cufe: `FE${documentType}CUFE`,
    authorizedAt: new Date('2026-12-01T04:30:00Z'),
    document: {
      dataTransaction: {
        client: { typeClientEB: '02', businessName: name },
        ...(reference ? { listDocsFiscalReferenced: [{ cufeFEReferenced: reference }] } : {}),
      },
      listItems: items.map(([rateITBMS, priceItem, valueITBMS]) => ({ rateITBMS, priceItem, valueITBMS })),
      totalsSubTotals: { totalInvoice: total },
    },
  };
}

describe('the sales book', () => {
  it('writes an invoice as the stored document says, dated in Panamá', () => {
    const row = salesBookRow(
      doc(
        '01',
        'Ana Pérez',
        [
          ['00', '3.00', '0.00'],
          ['01', '10.00', '0.70'],
          ['02', '1.00', '0.10'],
          ['03', '2.00', '0.30'],
        ],
        '17.10',
      ),
    );
    expect(row).toEqual([
      '2026-11-30',
      '01',
      '0000-001-0000000042',
      'FE01CUFE',
      '02',
      '',
      '',
      'Ana Pérez',
      300,
      1000,
      70,
      100,
      10,
      200,
      30,
      1710,
      '',
    ]);
  });

  it('writes a credit note with negative amounts and its invoice CUFE', () => {
    const row = salesBookRow(doc('04', 'Ana Pérez', [['01', '11.21', '0.79']], '12.00', 'FE01CUFE'));
    expect(row.slice(8)).toEqual([0, -1121, -79, 0, 0, 0, 0, -1200, 'FE01CUFE']);
    expect(Object.is(row[8], -0)).toBe(false);
  });

  it('is UTF-8 CSV with a BOM, CRLF, quotes doubled, formulas in text neutralised and negative amounts left as numbers', async () => {
    const text = await csvText([
      salesBookRow(doc('01', '=HYPERLINK("http://x")', [['01', '10.00', '0.70']], '10.70')),
      salesBookRow(doc('04', '-Ñandú, "SA"', [['01', '10.00', '0.70']], '10.70', 'FE01CUFE')),
      salesBookRow(doc('01', '@SUM(A1)', [['00', '1.00', '0.00']], '1.00')),
      salesBookRow(doc('01', '+1', [['00', '1.00', '0.00']], '1.00')),
    ]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      HEADER,
      `2026-11-30,01,0000-001-0000000042,FE01CUFE,02,,,"'=HYPERLINK(""http://x"")",0.00,10.00,0.70,0.00,0.00,0.00,0.00,10.70,`,
      `2026-11-30,04,0000-001-0000000042,FE04CUFE,02,,,"'-Ñandú, ""SA""",0.00,-10.00,-0.70,0.00,0.00,0.00,0.00,-10.70,FE01CUFE`,
      `2026-11-30,01,0000-001-0000000042,FE01CUFE,02,,,'@SUM(A1),1.00,0.00,0.00,0.00,0.00,0.00,0.00,1.00,`,
      `2026-11-30,01,0000-001-0000000042,FE01CUFE,02,,,'+1,1.00,0.00,0.00,0.00,0.00,0.00,0.00,1.00,`,
      '',
    ]);
  });
});
