import { parseNote } from '@agentm/core';

/** How much of a note's body goes into its related-memories query (its start says what it is about). */
export const RELATED_QUERY_CHARS = 1_000;

/**
 * The recall query for "memories related to this note": its title (the file name without `.md`) and
 * the start of its body, frontmatter left out (core's note parser). Pure; the same text given to
 * `agentm recall` ranks the same memories.
 */
export function relatedQuery(title: string, content: string): string {
  const body = parseNote(content).body.trim();
  return `${title}\n${body.slice(0, RELATED_QUERY_CHARS)}`.trim();
}
