// One line of text on a PDF page as raw content-stream operators. pdf-lib's drawText checks its options, builds about
// ten operator objects and adds a new font key to the page on every call (twice: it sets the font back); those were
// most of the sandbox's CPU per PDF, which it draws at the gateway's pace (bench/RESULTS.md). The marks are the same.
import { PDFOperator, type PDFOperatorNames, type PDFFont, type PDFPage } from 'pdf-lib';

/** A fill colour as its operator: grey levels for the sandbox's text. */
export type TextColor = 'black' | 'grey';
const FILL: Record<TextColor, string> = { black: '0 g', grey: '0.4 g' };

const fontKeys = new WeakMap<PDFPage, Map<PDFFont, string>>();

/** The page's resource name for `font`, added to the page once. */
function fontKey(page: PDFPage, font: PDFFont): string {
  let keys = fontKeys.get(page);
  if (!keys) fontKeys.set(page, (keys = new Map()));
  let key = keys.get(font);
  if (!key) keys.set(font, (key = page.node.newFontDictionary(font.name, font.ref).toString()));
  return key;
}

/** A coordinate or size as PDF writes numbers: no exponent, at most three decimals. */
const num = (n: number): string => String(Math.round(n * 1000) / 1000);

/** Draw `text` (already in the font's character set) with its baseline's start at (x, y). */
export function drawString(page: PDFPage, text: string, o: { x: number; y: number; size: number; font: PDFFont; color?: TextColor }): void {
  const shown = o.font.encodeText(text).toString();
  const ops = `q BT ${FILL[o.color ?? 'black']} ${fontKey(page, o.font)} ${num(o.size)} Tf 1 0 0 1 ${num(o.x)} ${num(o.y)} Tm ${shown} Tj ET Q`;
  page.pushOperators(PDFOperator.of(ops as PDFOperatorNames));
}
