import { HarnessError } from '../errors.js';

/** A `cmd::` that cannot be run safely without a shell (an operator, an unclosed quote). */
export class CommandSyntaxError extends HarnessError {
  readonly command: string;
  constructor(command: string, reason: string) {
    super(
      `cannot run ${JSON.stringify(command)}: ${reason}. agentm runs a step's command directly, without a shell, so no text in a ` +
        'plan can inject one: split pipelines and chains into separate steps, or put them in a script and run the script.',
      { code: 'ECOMMANDSYNTAX' },
    );
    this.command = command;
  }
}

const OPERATORS = new Set(['|', '&', ';', '<', '>', '(', ')', '`', '$']);

/**
 * Splits a command line into argv the way a POSIX shell splits words, without any shell feature:
 * whitespace separates words; '…' is literal; "…" is literal except `\"` and `\\`; a backslash outside
 * quotes escapes the next character. An unquoted shell operator (`| & ; < > ( ) $` or a backtick) is
 * refused with `CommandSyntaxError` rather than passed on as a confusing argument; quote it to pass it.
 */
export function splitCommand(command: string): string[] {
  const args: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && (command[i + 1] === '"' || command[i + 1] === '\\')) word += command[++i];
      else if (c === '$' || c === '`')
        throw new CommandSyntaxError(
          command,
          `"${c}" inside double quotes would be expanded by a shell; use single quotes`,
        );
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 < command.length) word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) args.push(word);
      word = '';
      inWord = false;
    } else if (OPERATORS.has(c)) {
      throw new CommandSyntaxError(command, `it contains the shell operator "${c}"`);
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new CommandSyntaxError(command, `a ${quote === "'" ? 'single' : 'double'} quote is not closed`);
  if (inWord) args.push(word);
  if (args.length === 0) throw new CommandSyntaxError(command, 'it is empty');
  return args;
}
