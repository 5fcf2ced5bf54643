import * as vscode from 'vscode';
import { FeatureUnavailableError, NothingToDoError } from '../errors';
import type { MemoryMaintenance, RecallHit } from '../sources/types';
import type { CommandContext } from './context';

const SEARCH_DEBOUNCE_MS = 150;

/** Save selection as memory: kind, slug and tags in quick inputs, each validated before anything is written. */
export async function saveSelection(ctx: CommandContext): Promise<string | undefined> {
  const saver = ctx.sources.notes;
  if (!saver) throw new FeatureUnavailableError('Save selection as memory');
  const editor = vscode.window.activeTextEditor;
  const body = editor ? editor.document.getText(editor.selection) : '';
  if (!editor || body.trim() === '') throw new NothingToDoError('select the text to save in an editor first, then run "AgentM: Save selection as memory"');
  const kind = await vscode.window.showQuickPick([...saver.kinds()], { title: 'AgentM: Save selection as memory (1/3)', placeHolder: 'Kind of memory' });
  if (!kind) return undefined;
  const slug = await vscode.window.showInputBox({
    title: 'AgentM: Save selection as memory (2/3)',
    prompt: 'Slug: the note file name, lowercase words joined by hyphens',
    validateInput: (v) => saver.validateSlug(v.trim()),
  });
  if (slug === undefined) return undefined;
  const tags = await vscode.window.showInputBox({
    title: 'AgentM: Save selection as memory (3/3)',
    prompt: 'Tags, comma-separated (may be empty)',
    validateInput: (v) => saver.validateTags(v),
  });
  if (tags === undefined) return undefined;
  const saved = await saver.save({
    kind,
    slug: slug.trim(),
    tags: tags.split(',').map((t) => t.trim()).filter(Boolean),
    body: body.endsWith('\n') ? body : `${body}\n`,
  });
  ctx.funnel.notify('info', `AgentM: saved memory '${slug.trim()}' (${kind}) to ${saved.uri.fsPath}`);
  ctx.recallTree.refresh();
  return saved.uri.toString();
}

type HitItem = vscode.QuickPickItem & { readonly hit: RecallHit };

/** Recall…: a quick pick that searches as the user types; the chosen note opens, the results go to the view. */
export async function recall(ctx: CommandContext, query?: unknown): Promise<string | undefined> {
  const source = ctx.sources.recall;
  if (!source) throw new FeatureUnavailableError('Recall');
  const pick = vscode.window.createQuickPick<HitItem>();
  pick.title = 'AgentM: Recall';
  pick.placeholder = 'Search memory';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let pending: vscode.CancellationTokenSource | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastHits: readonly RecallHit[] = [];
  const search = (value: string) => {
    clearTimeout(timer);
    pending?.cancel();
    if (value.trim() === '') return void (pick.items = []);
    timer = setTimeout(async () => {
      const cancel = (pending = new vscode.CancellationTokenSource());
      pick.busy = true;
      try {
        const hits = await source.search(value, cancel.token);
        if (cancel.token.isCancellationRequested) return;
        lastHits = hits;
        pick.items = hits.map((hit) => ({ label: hit.title, description: `${hit.kind} · ${hit.score.toFixed(2)}`, detail: hit.snippet, hit, alwaysShow: true }));
      } catch (error) {
        ctx.funnel.background('recall search', error);
      } finally {
        if (pending === cancel) pick.busy = false;
      }
    }, SEARCH_DEBOUNCE_MS);
  };
  pick.onDidChangeValue(search);
  if (typeof query === 'string') pick.value = query;
  search(pick.value);
  const chosen = await new Promise<HitItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  const value = pick.value;
  clearTimeout(timer);
  pending?.cancel();
  pick.dispose();
  if (value.trim()) ctx.recallTree.showSearch(value, lastHits);
  if (!chosen) return undefined;
  await vscode.window.showTextDocument(chosen.hit.uri);
  return chosen.hit.uri.toString();
}

async function longWork(ctx: CommandContext, title: string, work: MemoryMaintenance['reindex']): Promise<string> {
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `AgentM: ${title}`, cancellable: true }, (progress, token) =>
    work(progress, token),
  );
  ctx.funnel.notify('info', `AgentM: ${title}: ${result}`);
  ctx.recallTree.refresh();
  return result;
}

export async function reindex(ctx: CommandContext): Promise<string> {
  const m = ctx.sources.maintenance;
  if (!m) throw new FeatureUnavailableError('Reindex memory');
  return longWork(ctx, 'reindexing memory', (p, t) => m.reindex(p, t));
}

export async function consolidate(ctx: CommandContext): Promise<string> {
  const m = ctx.sources.maintenance;
  if (!m) throw new FeatureUnavailableError('Consolidate memory');
  return longWork(ctx, 'consolidating memory', (p, t) => m.consolidate(p, t));
}
