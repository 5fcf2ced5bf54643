import { join } from 'node:path';
import type { RecallItem } from '../../memory/recall/recall.js';
import { memoriesToInject } from '../../memory/recall/injection.js';
import { additionalContextOutput } from './hook-io.js';
import { NO_ANSWER, type HookAnswer, type HookContext } from './hook-context.js';

/** Memories added to a prompt (`AGENTM_PROMPT_RECALL_K`, a positive whole number, changes it). */
export const PROMPT_RECALL_K = 5;

function promptK(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env['AGENTM_PROMPT_RECALL_K']?.trim();
  return raw !== undefined && /^\d+$/.test(raw) && Number(raw) > 0 ? Math.min(Number(raw), 50) : PROMPT_RECALL_K;
}

/** The memories as context: title, kind, where the note is (a path the agent can open), score and snippet. */
export function renderPromptMemories(items: readonly RecallItem[], localRoot: string | undefined): string {
  if (items.length === 0) return '';
  const lines = ['## Memories that may bear on this prompt (AgentM)', ''];
  for (const item of items) {
    const where = localRoot !== undefined ? join(localRoot, item.locator) : item.locator;
    lines.push(`- **${item.title.replace(/\s+/g, ' ').trim() || item.id}** (${item.kind}) — ${where}`);
    if (item.snippet) lines.push(`  ${item.snippet.replace(/\s+/g, ' ').trim()}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * UserPromptSubmit: the top memories for the prompt (the project's and global notes and episodes, the
 * index brought up to date first) that pass the relevance floor (memoriesToInject: nothing rather than
 * noise, never the same memory or title twice), leaving out the always-load notes SessionStart already
 * gave. Lexical recall: the hook makes no network call. The run shell races the whole answer against
 * the 300 ms budget: late, it adds nothing rather than a partial ranking.
 */
export async function userPromptSubmit(ctx: HookContext): Promise<HookAnswer> {
  const prompt = ctx.payload.prompt?.trim() ?? '';
  const slug = ctx.project.slug;
  // No project here: memory is absent (the process seam's rule); a blank prompt has nothing to match.
  if (prompt === '' || slug === undefined) return NO_ANSWER;
  const k = promptK(ctx.env);
  const result = await ctx.ws.recall({ text: prompt, project: slug, k: k + 20 });
  for (const w of result.warnings) ctx.warn(`agentm: ${w}`);
  const items = memoriesToInject(result.items, k, undefined, result.contentWords);
  return {
    stdout: additionalContextOutput('UserPromptSubmit', renderPromptMemories(items, ctx.ws.localRoot)),
    note: result.servedBy !== undefined ? `recalled by ${result.servedBy}` : 'recalled in this process',
  };
}
