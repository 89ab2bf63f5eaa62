// The text of a PDF read from its content streams (pdf-strings.ts), and the CUFEs found in it (pdf-cufe.ts): literal
// strings with their escapes, hex strings, TJ arrays split mid-code, and pdf.js for what the streams do not show.
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readPdfText, showsAmount } from '../../../src/documents/pdf-cufe.ts';
import { contentStrings } from '../../../src/documents/pdf-strings.ts';
import { CUFE } from '../../support/issuing-factories.ts';

/** A one-page PDF whose content stream is exactly `content` (Helvetica as /F1). */
async function pdfWith(content: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.node.setFontDictionary(PDFName.of('F1'), font.ref);
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
  return Buffer.from(await doc.save());
}

const hex = (text: string) => Buffer.from(text, 'latin1').toString('hex').toUpperCase();

describe('contentStrings', () => {
  it('decodes literal strings with their escapes, hex strings, and joins a TJ array', async () => {
    const pdf = await pdfWith(
      [
        'BT /F1 10 Tf 40 700 Td',
        '(Direcci\\363n: Calle \\(50\\), \\\\ Panam\\341) Tj % a comment (not text)',
        `<${hex('Total: 66.88')}> Tj`,
        `[(${CUFE.slice(0, 30)}) -120 <${hex(CUFE.slice(30))}>] TJ`,
        '(line one\\nline two) Tj (joined \\',
        'here) Tj',
        'ET',
        'q << /MCID 3 >> BDC Q',
      ].join('\n'),
    );
    expect(await contentStrings(pdf)).toBe(`Dirección: Calle (50), \\ Panamá Total: 66.88 ${CUFE} line one\nline two joined here`);
  });

  it('reads a stream under another filter than deflate (here ASCIIHexDecode) through pdf-lib', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const content = `BT /F1 10 Tf 40 700 Td (${CUFE}) Tj (Total 12.34) Tj ET`;
    const stream = doc.context.stream(`${hex(content)}>`, { Filter: 'ASCIIHexDecode' });
    page.node.set(PDFName.of('Contents'), doc.context.register(stream));
    expect(await contentStrings(Buffer.from(await doc.save()))).toBe(`${CUFE} Total 12.34`);
  });

  it('reads nothing from what is not a PDF', async () => {
    expect(await contentStrings(Buffer.from('%PDF-1.7 truncated'))).toBeUndefined();
  });
});

describe('the CUFEs a PDF prints', () => {
  it('finds the CUFE split across a TJ array, and the amount', async () => {
    const pdf = await pdfWith(`BT /F1 10 Tf 40 700 Td [(${CUFE.slice(0, 20)}) 40 (${CUFE.slice(20)})] TJ (Total 1,066.88) Tj ET`);
    expect((await readPdfText(pdf)).cufes).toEqual([CUFE]);
    expect(showsAmount(await readPdfText(pdf), '1066.88')).toBe(true);
    expect(showsAmount(await readPdfText(pdf), '66.88')).toBe(false);
  });

  it('a code whose check digit is wrong is no CUFE', async () => {
    const wrong = `${CUFE.slice(0, -1)}${CUFE.endsWith('0') ? '1' : '0'}`;
    expect((await readPdfText(await pdfWith(`BT /F1 10 Tf (${wrong}) Tj ET`))).cufes).toEqual([]);
  });

  it('a PDF whose streams show no CUFE is read by pdf.js', async () => {
    // The code drawn as a form XObject's text: not in the page's own stream, so only the laid-out text has it.
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const formRef = doc.context.register(
      doc.context.flateStream(`BT /F1 8 Tf 40 700 Td (${CUFE}) Tj ET`, {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 612, 792],
        Resources: { Font: { F1: font.ref } },
      }),
    );
    page.node.setXObject(PDFName.of('X1'), formRef);
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream('q /X1 Do Q')));
    const pdf = Buffer.from(await doc.save());
    expect(await contentStrings(pdf)).toBe('');
    expect((await readPdfText(pdf)).cufes).toEqual([CUFE]);
  });
});
