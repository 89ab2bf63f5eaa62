// Text from data (order and buyer names, cart attributes, gateway messages) reaches an operator's
// terminal only as visible characters: a control character could clear the screen, retitle the window,
// move the cursor or, with bidirectional overrides, make a line read differently from its bytes.

/**
 * C0 controls (tab and newline included), DEL, C1 controls, the line and paragraph separators and the
 * bidirectional controls.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * The text with every unsafe character written as its JSON escape (`\u001b`): visible, unambiguous, and
 * inside a JSON string the same character, so JSON output stays exact JSON.
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Lines for a terminal: each line of `text` made safe, the line breaks between them kept. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}
