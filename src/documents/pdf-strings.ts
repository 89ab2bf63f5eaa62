// The strings a PDF's pages show, read straight from their content streams: pdf-lib parses the file and inflates the
// streams, and the string operands of the text operators are decoded byte for byte. That is the text itself when the
// PDF writes it in a one-byte encoding (generators using the standard fonts do), in about a sixth of the time
// pdf.js takes to lay the page's text out (bench/RESULTS.md); with a two-byte font the strings are glyph numbers,
// and pdf.js reads the text instead (pdf-cufe.ts).
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

/** The pages' string operands, a TJ array's parts joined, operands separated by a space; undefined if unreadable. */
export async function contentStrings(pdf: Uint8Array): Promise<string | undefined> {
  try {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: true });
    const parts: string[] = [];
    for (const page of doc.getPages()) {
      const contents = page.node.Contents();
      const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
      for (const stream of streams) {
        if (stream instanceof PDFRawStream) parts.push(stringsOf(decoded(stream)));
      }
    }
    return parts.join('\n');
  } catch {
    return undefined;
  }
}

const FLATE = PDFName.of('FlateDecode');

/**
 * A content stream's bytes. The usual one (deflated, nothing else) is inflated by zlib, several times faster than
 * pdf-lib's own inflater; any other filter chain, or deflate zlib refuses (pdf-lib's reads what it can), by pdf-lib.
 */
function decoded(stream: PDFRawStream): Uint8Array {
  if (stream.dict.get(PDFName.of('Filter')) === FLATE && stream.dict.get(PDFName.of('DecodeParms')) === undefined) {
    try {
      return inflateSync(stream.contents);
    } catch {
      // Below.
    }
  }
  return decodePDFRawStream(stream).decode();
}

const BACKSLASH = 0x5c;
const ESCAPES: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c };

/** The string operands of one content stream, as Latin-1 text (PDF syntax, ISO 32000-1 §7.3.4). */
function stringsOf(content: Uint8Array): string {
  const operands: string[] = [];
  let inArray: number[] | undefined;
  const add = (bytes: number[]) => {
    if (inArray) inArray.push(...bytes);
    else operands.push(latin1(bytes));
  };
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    if (c === 0x25) {
      // A comment, to the end of its line.
      while (i < content.length && content[i] !== 0x0a && content[i] !== 0x0d) i++;
    } else if (c === 0x5b) inArray = [];
    else if (c === 0x5d && inArray) {
      operands.push(latin1(inArray));
      inArray = undefined;
    } else if (c === 0x28) {
      const bytes: number[] = [];
      let depth = 1;
      for (i++; i < content.length; i++) {
        const b = content[i]!;
        if (b === BACKSLASH) {
          const next = content[++i]!;
          if (next >= 0x30 && next <= 0x37) {
            let octal = next - 0x30;
            for (let k = 0; k < 2 && content[i + 1]! >= 0x30 && content[i + 1]! <= 0x37; k++) octal = octal * 8 + content[++i]! - 0x30;
            bytes.push(octal & 0xff);
          } else if (next === 0x0d || next === 0x0a) {
            if (next === 0x0d && content[i + 1] === 0x0a) i++;
          } else bytes.push(ESCAPES[next] ?? next);
        } else if (b === 0x28) {
          depth++;
          bytes.push(b);
        } else if (b === 0x29 && --depth === 0) break;
        else bytes.push(b);
      }
      add(bytes);
    } else if (c === 0x3c && content[i + 1] === 0x3c) i++;
    else if (c === 0x3c) {
      let hex = '';
      for (i++; i < content.length && content[i] !== 0x3e; i++) hex += String.fromCharCode(content[i]!);
      const digits = hex.replace(/\s+/g, '');
      add([...Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex')]);
    }
  }
  return operands.join(' ');
}

function latin1(bytes: number[]): string {
  return Buffer.from(bytes).toString('latin1');
}
