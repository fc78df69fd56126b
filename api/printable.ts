// The one escape for every value that came from a target (a body, a responseCode, a message) before any output shows
// it: terminal control bytes and invisible direction marks become visible `\x1b`, `\u202e`. Runtime-neutral leaf.

/**
 * C0 controls but tab and line feed, DEL, C1 controls, and the invisible format characters that reorder or hide text
 * (bidirectional overrides and isolates, zero-width marks, line/paragraph separators, BOM, interlinear annotations).
 */
// A block, not a next-line comment: a formatter may move the pattern onto the line after its declaration.
/* eslint-disable no-control-regex -- control bytes are exactly what this finds */
const UNPRINTABLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
/* eslint-enable no-control-regex */

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control byte and invisible format character shown as its escape; tab and line feed kept. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escapeOne);
}
