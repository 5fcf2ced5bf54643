import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  assertKindName,
  assertSlug,
  assertTags,
  NoteValidationError,
  resolveKind,
  StorageRulesError,
  UnknownKindError,
} from '@agentm/core/memory';
import { type NoteFiling, type NoteScope } from '@agentm/core';
import type { IndexService } from './index-service';
import type { ProjectTracker } from './project-tracker';
import type { NoteDraft, NoteSaver } from './types';

/** Core's validation message for a value, or undefined when it passes. */
function validationMessage(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof NoteValidationError) return error.message;
    throw error;
  }
}

/** Tags as the input box takes them: comma-separated, blanks dropped. */
export function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** Where a filing puts a note, in words: `in project 'x'`, `as a global note`. */
export function filedWhere(filing: NoteFiling): string {
  if (filing.scope === 'project') return `in project '${filing.project}'`;
  if (filing.scope === 'global') return 'as a global note';
  return `in ${filing.group}`;
}

/**
 * Saves notes through the workspace (core's `saveNote`: agentm's format, never overwriting), filed by
 * the workspace's one rule, as `agentm save` and the MCP server file them: under the current project's
 * folder (`desk/projects/<slug>`, or the rung core's probe finds), or with every project's notes for
 * `global` (and when there is no project). Kinds come from the workspace's filing vocabulary (agentm's
 * storage rules, config `memory.vocabulary` on top); slugs and tags are checked with core's validation,
 * so the input boxes show the same messages `agentm save` prints.
 */
export class CoreNoteSaver implements NoteSaver {
  constructor(
    private readonly tracker: ProjectTracker,
    private readonly indexes: IndexService,
  ) {}

  async kinds(): Promise<{ readonly types: readonly string[]; readonly recordKinds: readonly string[] }> {
    const vocabulary = await (await this.tracker.current()).workspace.vocabulary();
    return { types: vocabulary.types, recordKinds: vocabulary.recordKinds };
  }

  async validateKind(kind: string): Promise<string | undefined> {
    const ws = await this.tracker.current();
    try {
      assertKindName(kind);
      resolveKind(kind, await ws.workspace.vocabulary());
      return undefined;
    } catch (error) {
      // A broken rules file is shown where the kind is typed: no kind can be filed until it is fixed.
      if (
        error instanceof NoteValidationError ||
        error instanceof UnknownKindError ||
        error instanceof StorageRulesError
      )
        return error.message;
      throw error;
    }
  }

  async filing(scope: NoteScope = 'project'): Promise<NoteFiling> {
    return (await this.tracker.current()).workspace.noteFiling({ scope });
  }

  async validateSlug(slug: string, kind?: string, scope: NoteScope = 'project'): Promise<string | undefined> {
    const invalid = validationMessage(() => assertSlug(slug));
    if (invalid || kind === undefined) return invalid;
    const ws = await this.tracker.current();
    let target;
    try {
      target = (await ws.workspace.buildNote({ kind, slug, body: '\n', tags: [], scope })).locator;
    } catch (error) {
      if (
        error instanceof NoteValidationError ||
        error instanceof UnknownKindError ||
        error instanceof StorageRulesError
      )
        return error.message;
      throw error;
    }
    return (await ws.workspace.backend.exists(target))
      ? `a ${kind} note '${slug}' already exists (${target.key}); choose another slug — saving never overwrites`
      : undefined;
  }

  validateTags(tags: string): string | undefined {
    return validationMessage(() => assertTags(parseTags(tags)));
  }

  async target(kind: string, slug: string, scope: NoteScope = 'project'): Promise<string> {
    const ws = await this.tracker.current();
    return (await ws.workspace.buildNote({ kind, slug, body: '\n', tags: [], scope })).locator.key;
  }

  async save(draft: NoteDraft): Promise<{ readonly uri: vscode.Uri; readonly where: string }> {
    const ws = await this.tracker.current();
    const note = await ws.workspace.saveNote({
      kind: draft.kind,
      slug: draft.slug,
      body: draft.body,
      tags: [...draft.tags],
      scope: draft.scope ?? 'project',
    });
    await this.indexes.noteWritten([note.locator]).catch(() => undefined); // the watcher catches up otherwise
    return { uri: vscode.Uri.file(join(ws.memoryRoot ?? '', ...note.locator.parts)), where: filedWhere(note.filing) };
  }
}
