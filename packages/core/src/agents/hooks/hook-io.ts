/**
 * Claude Code's hook protocol, as far as AgentM's hooks use it: the events, the JSON a hook gets on
 * stdin, and the JSON it may print. Pure.
 */

/** The hook events AgentM answers, by Claude Code's names. */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** `session-start`, `SessionStart`, `sessionstart` → `SessionStart`; undefined for an event AgentM does not answer. */
export function normalizeHookEvent(name: string | undefined): HookEvent | undefined {
  const flat = (name ?? '').replace(/[-_\s]/g, '').toLowerCase();
  return HOOK_EVENTS.find((e) => e.toLowerCase() === flat);
}

/** The fields of Claude Code's hook input AgentM reads. Every field is optional: a payload is outside input. */
export interface HookPayload {
  readonly hook_event_name?: string;
  readonly session_id?: string;
  readonly transcript_path?: string;
  readonly cwd?: string;
  /** UserPromptSubmit: what the user typed. */
  readonly prompt?: string;
  /** SessionStart: `startup`, `resume`, `clear`, `compact`. */
  readonly source?: string;
  /** PreCompact: `manual` or `auto`. */
  readonly trigger?: string;
  /** Stop: true when Claude Code is already continuing because of a stop hook. */
  readonly stop_hook_active?: boolean;
}

const STRING_FIELDS = ['hook_event_name', 'session_id', 'transcript_path', 'cwd', 'prompt', 'source', 'trigger'];

/**
 * Reads the hook input: a JSON object; only the known fields, each only with the expected type, are
 * kept (anything else is ignored, never trusted). Blank input is an empty payload; text that is not a
 * JSON object is reported through `problem` and read as an empty payload.
 */
export function parseHookPayload(text: string): { payload: HookPayload; problem?: string } {
  if (text.trim() === '') return { payload: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { payload: {}, problem: `the hook input is not JSON (${(error as Error).message})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { payload: {}, problem: 'the hook input is not a JSON object' };
  const source = raw as Record<string, unknown>;
  const payload: Record<string, unknown> = {};
  for (const key of STRING_FIELDS) if (typeof source[key] === 'string') payload[key] = source[key];
  if (typeof source['stop_hook_active'] === 'boolean') payload['stop_hook_active'] = source['stop_hook_active'];
  return { payload: payload as HookPayload };
}

/**
 * The stdout that adds `context` to the conversation (SessionStart, UserPromptSubmit): Claude Code's
 * `hookSpecificOutput.additionalContext`. `""` when there is nothing to add (a hook that prints nothing
 * changes nothing).
 */
export function additionalContextOutput(event: 'SessionStart' | 'UserPromptSubmit', context: string): string {
  if (context.trim() === '') return '';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: context } })}\n`;
}

/** The stdout that shows the person a one-line message (any event; it never blocks or continues anything). */
export function systemMessageOutput(message: string): string {
  if (message.trim() === '') return '';
  return `${JSON.stringify({ systemMessage: message })}\n`;
}
