/**
 * Text safe to show on a terminal: control characters a file name, a note or a model could carry
 * (ESC sequences that retitle the window, move the cursor or hide text; a lone CR that overwrites the
 * line; C1 controls; the bidirectional overrides behind "Trojan Source" spoofing) are replaced by a
 * visible escape (`\x1b`, `\u202e`). Tab, LF and CRLF are kept. Pure.
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (ch, offset: number, whole: string) => {
    if (ch === '\r' && whole[offset + 1] === '\n') return ch;
    const code = ch.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

// C0 except TAB and LF (CR is judged by position above), DEL, C1, and the bidi embeddings/overrides/isolates.
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
