// Text on a PDF drawn with the standard fonts: what their WinAnsi encoding can show, wrapped or cut to a width.
import type { PDFFont } from 'pdf-lib';

/**
 * A function that keeps every character the font's WinAnsi encoding has (Spanish accents, ñ, ¿, ¡),
 * turns line breaks and tabs into spaces, strips accents it lacks (ă → a) and replaces the rest with '?'.
 */
export function winAnsiSanitizer(font: PDFFont): (text: string) => string {
  const supported = new Set(font.getCharacterSet());
  const keep = (ch: string): boolean => supported.has(ch.codePointAt(0)!);
  return (value: string) => {
    let out = '';
    for (const ch of value.replace(/[\r\n\t\v\f]+/g, ' ')) {
      if (keep(ch)) {
        out += ch;
        continue;
      }
      const base = ch.normalize('NFD').replace(/\p{M}+/gu, '');
      out += base !== '' && [...base].every(keep) ? base : '?';
    }
    return out;
  };
}

/** Greedy word wrap to `width`; a word longer than a line is broken by characters. */
export function wrap(value: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of value.split(/ +/).filter((w) => w !== '')) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = '';
    for (const ch of word) {
      if (font.widthOfTextAtSize(current + ch, size) > width && current !== '') {
        lines.push(current);
        current = '';
      }
      current += ch;
    }
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  return lines;
}

/** Cut text to `width`, marking the cut with "…" (in WinAnsi). */
export function fit(value: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  let cut = value;
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
