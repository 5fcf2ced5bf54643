/** A partial line longer than this is let out as it is (a progress bar that never prints a newline). */
export const MAX_PARTIAL_LINE = 4096;

/**
 * Cuts a stream of text chunks into whole lines, so each line is redacted and made printable as a
 * whole (a secret split across two chunks would slip past a per-chunk redactor). A carriage return
 * ends a line too (a command's own progress bar becomes a few lines, not a garbled one).
 */
export class LineSplitter {
  #partial = '';
  /** The last chunk ended with CR: a LF opening the next one belongs to it (one CRLF, not two ends). */
  #afterCR = false;

  /** The complete lines in `text` (with what came before it), without line endings. */
  push(text: string): string[] {
    const chunk = this.#afterCR && text.startsWith('\n') ? text.slice(1) : text;
    this.#afterCR = chunk.endsWith('\r');
    const parts = (this.#partial + chunk).split(/\r\n|\r|\n/);
    this.#partial = parts.pop()!;
    if (this.#partial.length > MAX_PARTIAL_LINE) {
      parts.push(this.#partial);
      this.#partial = '';
    }
    return parts;
  }

  /** What is left (a last line without a line ending), once the stream has ended. */
  flush(): string[] {
    const rest = this.#partial;
    this.#partial = '';
    return rest === '' ? [] : [rest];
  }
}
