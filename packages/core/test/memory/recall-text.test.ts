import { describe, expect, it } from 'vitest';
import { MemoryArgumentError, RecallTextRequiredError } from '../../src/memory/errors.js';
import { requireRecallText } from '../../src/memory/recall/recall-text.js';

describe('recall text (memQL: text is required)', () => {
  it.each(['', '   ', '\n\t', undefined])('refuses %j with a typed error naming the fix', (text) => {
    const error = (() => {
      try {
        requireRecallText(text);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(RecallTextRequiredError);
    expect(error).toBeInstanceOf(MemoryArgumentError); // the family callers already catch
    expect((error as RecallTextRequiredError).code).toBe('ERECALLTEXT');
    expect((error as RecallTextRequiredError).exitCode).toBe(2); // the CLI's usage error
    expect((error as Error).message).toMatch(/recall needs text to look for.*agentm recall-here.*session_context/s);
  });

  it('passes text through as given (ranking trims it)', () => {
    expect(requireRecallText(' file watcher ')).toBe(' file watcher ');
  });
});
