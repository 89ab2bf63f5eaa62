// The QR symbol of the DGI query address, drawn as vector squares on a PDF page.
import {
  PDFOperator,
  type PDFOperatorNames,
  concatTransformationMatrix,
  fill,
  popGraphicsState,
  pushGraphicsState,
  setFillingGrayscaleColor,
  type PDFPage,
} from 'pdf-lib';
import { create as createQr } from 'qrcode';

/** Draw the QR symbol of `value` as filled squares (one rectangle per horizontal run of dark modules). */
export function drawQr(page: PDFPage, value: string, x: number, y: number, size: number): void {
  // A fixed mask: any mask decodes, and choosing the best of eight is most of the QR's CPU.
  const { modules } = createQr([{ data: Buffer.from(value, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M', maskPattern: 2 });
  const count = modules.size;
  const quiet = 2; // modules of white border, inside `size`
  const unit = size / (count + 2 * quiet);
  const runs: string[] = [];
  for (let row = 0; row < count; row++) {
    let col = 0;
    while (col < count) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < count && modules.get(row, col)) col++;
      runs.push(`${quiet + start} ${count + quiet - row - 1} ${col - start} 1 re`);
    }
  }
  // One path filled once, in module units (whole numbers: short to write and to compress), scaled to size. The
  // rectangles go as their text (the same bytes pdf-lib writes for its `re` operators): some 400 operator objects a
  // PDF were a third of the sandbox's CPU while drawing at the gateway's pace (bench/RESULTS.md).
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(unit, 0, 0, unit, x, y),
    setFillingGrayscaleColor(0),
    PDFOperator.of(runs.join('\n') as PDFOperatorNames),
    fill(),
    popGraphicsState(),
  );
}
