import * as vscode from 'vscode';
import { ExtensionError } from '../errors';
import type { NoteSaver } from '../sources/types';
import { checkerFor, textResult, type NamedTool } from './tool-kit';

export const SAVE_TOOL = 'agentm_save_memory';

export interface SaveInput {
  readonly kind: string;
  readonly slug: string;
  readonly body: string;
  readonly tags?: readonly string[];
  readonly scope?: 'project' | 'global';
}

const PREVIEW_LINES = 12;

/** Core's checks beyond the schema (the vocabulary, a note already there): the first problem, named. */
async function problemOf(saver: NoteSaver, input: SaveInput): Promise<string | undefined> {
  return (
    (await saver.validateKind(input.kind)) ??
    (await saver.validateSlug(input.slug, input.kind, input.scope)) ??
    saver.validateTags((input.tags ?? []).join(','))
  );
}

/** What the person confirms: the kind, the name, where it goes, and the start of the body. */
export function saveConfirmation(input: SaveInput, target: string): vscode.LanguageModelToolConfirmationMessages {
  const lines = input.body.replace(/\r\n?/g, '\n').trimEnd().split('\n');
  const preview = lines.slice(0, PREVIEW_LINES).map((l) => `> ${l}`);
  if (lines.length > PREVIEW_LINES) preview.push(`> … (${lines.length - PREVIEW_LINES} more lines)`);
  const tags = input.tags?.length ? ` · tags ${input.tags.map((t) => `\`${t}\``).join(', ')}` : '';
  const message = new vscode.MarkdownString(
    `Save a **${input.kind}** memory named \`${input.slug}\`${tags} to \`${target}\` in your AgentM memory (it syncs with your vault; saving never overwrites a note).\n\n${preview.join('\n')}`,
  );
  return { title: `Save memory '${input.slug}'?`, message };
}

/**
 * Save: writes a new memory note in agentm's format through core (never overwriting), after the person
 * confirms. Bad input is refused before the confirmation, naming the fix.
 */
export function saveTool(packageJSON: unknown, saver: NoteSaver, onSaved: () => void): NamedTool<SaveInput> {
  const check = checkerFor<SaveInput>(packageJSON, SAVE_TOOL);
  const checked = async (raw: unknown) => {
    const input = check(raw);
    const problem = await problemOf(saver, input);
    if (problem) throw new ExtensionError(`${SAVE_TOOL} cannot save: ${problem}`);
    return input;
  };
  return {
    name: SAVE_TOOL,
    async prepareInvocation(options) {
      const input = await checked(options.input);
      return {
        invocationMessage: `Saving memory '${input.slug}'`,
        confirmationMessages: saveConfirmation(input, await saver.target(input.kind, input.slug, input.scope)),
      };
    },
    async invoke(options) {
      const input = await checked(options.input);
      const saved = await saver.save({
        kind: input.kind,
        slug: input.slug,
        tags: [...(input.tags ?? [])],
        body: input.body,
        scope: input.scope ?? 'project',
      });
      onSaved();
      return textResult(
        `Saved the ${input.kind} memory '${input.slug}' ${saved.where} at ${saved.uri.fsPath}. It is indexed: ${'agentm_recall'} finds it.`,
      );
    },
  };
}
