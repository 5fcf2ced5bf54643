import { RecallTextRequiredError } from '../errors.js';

/**
 * The text of an agent's or a person's recall, refused when it is empty or only whitespace (memQL's
 * `harnessRecall.recall`: text is required) with `RecallTextRequiredError`. The CLI's `recall` and the
 * MCP `recall` tool go through it; the editors' search boxes, which show the newest memories before
 * anything is typed, call recall without it.
 */
export function requireRecallText(text: string | undefined): string {
  if (text === undefined || text.trim() === '') throw new RecallTextRequiredError();
  return text;
}
