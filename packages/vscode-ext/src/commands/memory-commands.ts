import { isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import type { NoteScope } from '@agentm/core';
import { ExtensionError, NothingToDoError } from '../errors';
import { gitPosition } from '../sources/git-position';
import { filedWhere, parseTags } from '../sources/note-saver';
import type { MemoryMaintenance, RecallHit } from '../sources/types';
import { setContextKey } from '../context-keys';
import { kindDescription } from '../views/kind-descriptions';
import type { CommandContext } from './context';
import { selectionBody, suggestSlug, type SelectionSource } from './save-draft';

const SEARCH_DEBOUNCE_MS = 150;

/** Answers to the three questions, when a caller (a test, a keybinding with args) already has them. */
interface SaveArgs {
  readonly kind?: string;
  readonly slug?: string;
  readonly tags?: string;
  /** `global`: file it with every project's notes instead of this project's ("Save selection as global memory"). */
  readonly scope?: NoteScope;
}

const saveArgs = (arg: unknown): SaveArgs => (typeof arg === 'object' && arg !== null ? (arg as SaveArgs) : {});

/** What the save prompts show now (the inspect command reports it: tests drive the real quick input). */
export interface SavePromptState {
  /** 0: no prompt open; 1: the kind picker; 2: the slug box; 3: the tags box. */
  step: number;
  kinds: readonly { readonly label: string; readonly description: string | undefined }[];
  suggestedSlug: string;
  /** Where the note will land, as the prompts say it (`in project 'x'`, `as a global note`). */
  where: string;
}

/** A kind in the picker; `name` is undefined on the separators. */
type KindItem = vscode.QuickPickItem & { readonly name?: string };

/** The kind picker's items: memory types first, then record kinds, each with what it is for. */
function kindItems(kinds: { readonly types: readonly string[]; readonly recordKinds: readonly string[] }): KindItem[] {
  const group = (label: string, names: readonly string[], register: 'type' | 'record'): KindItem[] =>
    names.length === 0
      ? []
      : [
          { label, kind: vscode.QuickPickItemKind.Separator },
          ...names.map((name) => ({ label: name, description: kindDescription(name, register), name })),
        ];
  return [
    ...group('Memory types: what your agent recalls', kinds.types, 'type'),
    ...group('Record kinds: records of work', kinds.recordKinds, 'record'),
  ];
}

/**
 * The selection and where it is, for the note's body: its path in its git repository and the commit (else
 * relative to the workspace folder), never an absolute path — the note syncs to other machines.
 */
async function selectionSource(editor: vscode.TextEditor): Promise<SelectionSource> {
  const { document, selection } = editor;
  const startLine = selection.start.line + 1;
  // A selection ending at column 0 of a line does not take that line.
  const endLine =
    selection.end.character === 0 && selection.end.line > selection.start.line
      ? selection.end.line
      : selection.end.line + 1;
  let path: string | undefined;
  let commit: string | undefined;
  if (document.uri.scheme === 'file') {
    const git = await gitPosition(document.uri.fsPath);
    const inWorkspace = vscode.workspace.asRelativePath(document.uri, false);
    path = git?.path ?? (isAbsolute(inWorkspace) ? undefined : inWorkspace);
    commit = git?.commit;
  }
  return { text: document.getText(selection), languageId: document.languageId, path, startLine, endLine, commit };
}

/**
 * Save selection as memory: kind (a quick pick explaining each memory type and record kind), slug (an
 * input box proposing one from the selection's first line) and tags, each checked with core's
 * validation as it is typed — nothing is written until all three pass. Code is saved fenced with its
 * language and a link back to its file and line; prose as written. The note goes to the project's
 * folder (or the memory space), in agentm's format, and is opened.
 */
export async function saveSelection(ctx: CommandContext, arg?: unknown): Promise<string | undefined> {
  const given = saveArgs(arg);
  const editor = vscode.window.activeTextEditor;
  const selected = editor ? editor.document.getText(editor.selection) : '';
  if (!editor || selected.trim() === '')
    throw new NothingToDoError(
      'select the text to save in an editor first, then run "AgentM: Save selection as memory"',
    );
  const source = await selectionSource(editor);
  const prompt = ctx.savePrompt;
  try {
    return await askAndSave(ctx, given, source, selected);
  } finally {
    prompt.step = 0;
  }
}

async function askAndSave(
  ctx: CommandContext,
  given: SaveArgs,
  source: SelectionSource,
  selected: string,
): Promise<string | undefined> {
  const saver = ctx.sources.notes;
  const prompt = ctx.savePrompt;
  const scope = given.scope ?? 'project';
  // Said before anything is asked: where the note will land (the workspace's rule, as agentm save files it).
  const where = filedWhere(await saver.filing(scope));
  prompt.where = where;
  let picked = given.kind;
  if (picked === undefined) {
    const items = kindItems(await saver.kinds());
    prompt.kinds = items.map((i) => ({ label: i.label, description: i.description }));
    prompt.step = 1;
    picked = (
      await vscode.window.showQuickPick(items, {
        title: `AgentM: Save selection as memory ${where} (1/3)`,
        placeHolder: 'Kind of memory',
        matchOnDescription: true,
      })
    )?.name;
  }
  const kind = picked;
  if (!kind) return undefined;
  const kindProblem = await saver.validateKind(kind);
  if (kindProblem) throw new ExtensionError(kindProblem);
  const suggested = suggestSlug(selected);
  prompt.suggestedSlug = suggested;
  if (given.slug === undefined) prompt.step = 2;
  const slug =
    given.slug ??
    (await vscode.window.showInputBox({
      title: `AgentM: Save selection as memory ${where} (2/3)`,
      prompt: 'Slug: the note file name, lowercase words joined by hyphens',
      value: suggested,
      validateInput: (v) => saver.validateSlug(v.trim(), kind, scope),
    }));
  if (slug === undefined) return undefined;
  const slugProblem = await saver.validateSlug(slug.trim(), kind, scope);
  if (slugProblem) throw new ExtensionError(slugProblem);
  if (given.tags === undefined) prompt.step = 3;
  const tags =
    given.tags ??
    (await vscode.window.showInputBox({
      title: `AgentM: Save selection as memory ${where} (3/3)`,
      prompt: 'Tags, comma-separated (may be empty)',
      validateInput: (v) => saver.validateTags(v),
    }));
  if (tags === undefined) return undefined;
  const tagProblem = saver.validateTags(tags);
  if (tagProblem) throw new ExtensionError(tagProblem);
  const body = selectionBody(source, slug.trim());
  const saved = await saver.save({ kind, slug: slug.trim(), tags: parseTags(tags), body, scope });
  ctx.funnel.notify('info', `AgentM: saved memory '${slug.trim()}' (${kind}) ${saved.where}: ${saved.uri.fsPath}`);
  ctx.recallTree.refresh();
  await setContextKey('agentm.memory.saved', true);
  await vscode.window.showTextDocument(saved.uri, { preview: false });
  return saved.uri.toString();
}

type HitItem = vscode.QuickPickItem & { readonly hit: RecallHit };

/** What the Recall… quick pick shows now (the inspect command reports it). */
export interface RecallPickState {
  open: boolean;
  value: string;
  items: readonly string[];
  searches: number;
  /**
   * The item the window shows active, as the window last reported it (undefined until it has shown the
   * latest items): Enter takes this one. The items go to the window a moment after they are set.
   */
  active: string | undefined;
}

/** Recall…: a quick pick that searches as the user types (debounced); the chosen note opens, the results go to the view. */
export async function recall(ctx: CommandContext, query?: unknown): Promise<string | undefined> {
  const source = ctx.sources.recall;
  const state = ctx.recallPick;
  const pick = vscode.window.createQuickPick<HitItem>();
  pick.title = 'AgentM: Recall';
  pick.placeholder = 'Search memory';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let pending: vscode.CancellationTokenSource | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastHits: readonly RecallHit[] = [];
  const show = (hits: readonly RecallHit[]) => {
    lastHits = hits;
    pick.items = hits.map((hit) => ({
      label: hit.title,
      description: `${hit.kind} · ${hit.score.toFixed(2)}`,
      detail: hit.snippet,
      hit,
      alwaysShow: true,
    }));
    state.items = hits.map((h) => h.title);
    state.active = undefined;
  };
  const search = (value: string) => {
    clearTimeout(timer);
    pending?.cancel();
    state.value = value;
    if (value.trim() === '') return show([]);
    const run = async () => {
      const cancel = (pending = new vscode.CancellationTokenSource());
      pick.busy = true;
      try {
        const hits = await source.search(value, cancel.token);
        if (cancel.token.isCancellationRequested) return;
        state.searches++;
        ctx.funnel.background('recall search', undefined);
        show(hits);
      } catch (error) {
        ctx.funnel.background('recall search', error);
      } finally {
        if (pending === cancel) pick.busy = false;
      }
    };
    timer = setTimeout(() => void run(), SEARCH_DEBOUNCE_MS);
  };
  pick.onDidChangeValue(search);
  pick.onDidChangeActive((active) => (state.active = active[0]?.label));
  // The index changed while the pick is open (a background embedding run ended, a note was saved): search again.
  const changed = source.onDidChange(() => search(pick.value));
  pick.onDidHide(() => changed.dispose());
  if (typeof query === 'string') pick.value = query;
  search(pick.value);
  state.open = true;
  const chosen = await new Promise<HitItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.activeItems[0] ?? pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  state.open = false;
  const value = pick.value;
  clearTimeout(timer);
  pending?.cancel();
  pick.dispose();
  if (value.trim()) ctx.recallTree.showSearch(value, lastHits);
  if (!chosen) return undefined;
  await vscode.window.showTextDocument(chosen.hit.uri, { preview: false });
  return chosen.hit.uri.toString();
}

async function longWork(ctx: CommandContext, title: string, work: MemoryMaintenance['reindex']): Promise<string> {
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `AgentM: ${title}`, cancellable: true },
    (progress, token) => work(progress, token),
  );
  ctx.funnel.notify('info', `AgentM: ${title}: ${result}`);
  ctx.recallTree.refresh();
  return result;
}

export async function reindex(ctx: CommandContext): Promise<string> {
  return longWork(ctx, 'reindexing memory', (p, t) => ctx.sources.maintenance.reindex(p, t));
}

export async function consolidate(ctx: CommandContext): Promise<string> {
  return longWork(ctx, 'consolidating memory', (p, t) => ctx.sources.maintenance.consolidate(p, t));
}

/** Save selection as global memory: the same, filed with every project's notes instead of this project's. */
export function saveSelectionGlobal(ctx: CommandContext, arg?: unknown): Promise<string | undefined> {
  return saveSelection(ctx, { ...saveArgs(arg), scope: 'global' });
}
