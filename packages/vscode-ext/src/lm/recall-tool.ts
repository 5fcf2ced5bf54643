import type * as vscode from 'vscode';
import type { RecallAnswer, RecallSource } from '../sources/types';
import { checkerFor, textResult, type NamedTool } from './tool-kit';

export const RECALL_TOOL = 'agentm_recall';

export interface RecallInput {
  readonly query: string;
  readonly scope?: 'project' | 'all';
  readonly limit?: number;
  readonly kinds?: readonly string[];
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The answer as the model reads it: one numbered entry per memory, best first, with its file to open. */
export function renderRecall(input: RecallInput, answer: RecallAnswer): string {
  const where = answer.project ? `project '${answer.project}' and global memories` : 'every project';
  if (answer.hits.length === 0)
    return `No memories match "${input.query}" in ${where}.${answer.project ? ' Try scope "all" or other words.' : ''}`;
  const count = `${answer.hits.length} ${answer.hits.length === 1 ? 'memory' : 'memories'}`;
  const lines = [`${count} for "${input.query}" (${where}; ${answer.mode} ranking), best first:`];
  answer.hits.forEach((hit, i) => {
    lines.push(
      '',
      `${i + 1}. ${hit.title} — ${hit.kind}, score ${hit.score.toFixed(2)}, updated ${day(hit.updatedMs)}`,
      `   file: ${hit.uri.fsPath}`,
      ...hit.snippet
        .trim()
        .split('\n')
        .map((l) => `   ${l}`),
    );
  });
  for (const warning of answer.warnings) lines.push('', `Note: ${warning}`);
  return lines.join('\n');
}

/** Recall: the memories that match a query, scored by relevance and recency (read-only). */
export function recallTool(packageJSON: unknown, recall: RecallSource): NamedTool<RecallInput> {
  const check = checkerFor<RecallInput>(packageJSON, RECALL_TOOL);
  return {
    name: RECALL_TOOL,
    prepareInvocation: (options) => ({ invocationMessage: `Recalling memories about "${check(options.input).query}"` }),
    async invoke(options, token: vscode.CancellationToken) {
      const input = check(options.input);
      const answer = await recall.query(
        { text: input.query, scope: input.scope ?? 'project', limit: input.limit, kinds: input.kinds },
        token,
      );
      return textResult(renderRecall(input, answer));
    },
  };
}
