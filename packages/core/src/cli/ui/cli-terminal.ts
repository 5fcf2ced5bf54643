import { printable } from '../../seam/printable.js';
import { redactSecrets } from '../../text/redact.js';
import type { CliIo } from '../context.js';
import { colorEnabled, TermStream, type Terminal } from './terminal.js';

/**
 * The terminal of a CLI run: stdout made printable, stderr made printable and redacted (the same
 * cleaning `runCli` gives `io.out` and `io.err`), each coloured only where `colorEnabled` says so.
 */
export function cliTerminal(io: CliIo, secrets: readonly string[]): Terminal {
  const outTTY = io.outIsTTY === true;
  const errTTY = io.errIsTTY === true;
  return {
    out: new TermStream({
      raw: io.termOut ?? io.out,
      clean: (text) => printable(text),
      tty: outTTY,
      color: colorEnabled(io.env, outTTY),
      columns: io.columns,
    }),
    err: new TermStream({
      raw: io.termErr ?? io.err,
      clean: (text) => printable(redactSecrets(text, secrets)),
      tty: errTTY,
      color: colorEnabled(io.env, errTTY),
      columns: io.columns,
    }),
  };
}
