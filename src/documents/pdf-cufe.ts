// The CUFEs an official PDF prints: every PDF is checked to name its document's CUFE, and when the gateway's answer
// was lost the CUFE is recovered from it (docs/gateway-checks.md).
import { parseCufe } from '../../mappers/fiscal/cufe.ts';
import { contentStrings } from './pdf-strings.ts';

const CUFE_CANDIDATE = /FE\d{2}[0-9A-Z-]{62}/g;

/** What an official PDF says, read once: its text, and every distinct CUFE with a valid check digit in it, in order. */
export interface PdfText {
  readonly text: string;
  readonly cufes: readonly string[];
}

/** Whether the PDF's text shows this amount as the gateway writes it ("66.88"; thousands separators allowed). */
export function showsAmount(read: PdfText, amount: string): boolean {
  const text = read.text.replace(/[\s,]/g, '');
  return new RegExp(`(^|[^0-9.])${amount.replace('.', '\\.')}($|[^0-9])`).test(text);
}

function cufesIn(text: string): string[] {
  const found = new Set<string>();
  // Text extraction may split or space a long code; look in the text both as it is and without blanks.
  for (const haystack of [text, text.replace(/\s+/g, '')]) {
    for (const match of haystack.matchAll(CUFE_CANDIDATE)) {
      if (parseCufe(match[0])) found.add(match[0]);
    }
  }
  return [...found];
}

/**
 * The PDF's text and the CUFEs in it: its content streams' strings when they show a CUFE (a PDF written in a one-byte
 * encoding), else as pdf.js lays it out (any font, at six times the cost); no text for a file neither can read.
 */
export async function readPdfText(pdf: Buffer): Promise<PdfText> {
  const strings = await contentStrings(pdf);
  const cufes = strings === undefined ? [] : cufesIn(strings);
  if (strings !== undefined && cufes.length > 0) return { text: strings, cufes };
  const text = await laidOutText(pdf).catch(() => '');
  return { text, cufes: cufesIn(text) };
}

async function laidOutText(pdf: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), verbosity: 0, isEvalSupported: false }).promise;
  try {
    const parts: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      parts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
    }
    return parts.join('\n');
  } finally {
    await doc.destroy();
  }
}

/** The DGI's public look-up of an invoice by CUFE (docs/reference/panama-fe.md §4.3): the QR address's stand-in. */
export function cufeLookupUrl(environment: 'pruebas' | 'produccion', cufe: string): string {
  const host = environment === 'produccion' ? 'https://dgi-fep.mef.gob.pa' : 'https://dgi-fep-test.mef.gob.pa:40001';
  return `${host}/Consultas/FacturasPorCUFE?CUFE=${encodeURIComponent(cufe)}`;
}
