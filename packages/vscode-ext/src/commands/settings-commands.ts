import * as vscode from 'vscode';
import { ExtensionError } from '../errors';
import { API_KEY_SECRET } from '../secrets';
import { PHASES, readSettings, updatePhase, type Phase } from '../settings';
import type { CommandContext } from './context';

/** Set phase…: the phase phase recall uses (`agentm.recall.phase`); an argument skips the quick pick. */
export async function setPhase(ctx: CommandContext, arg?: unknown): Promise<Phase | undefined> {
  let phase: string | undefined = typeof arg === 'string' ? arg : undefined;
  if (phase === undefined) {
    const current = readSettings().phase;
    phase = (
      await vscode.window.showQuickPick(
        PHASES.map((p) => ({ label: p, description: p === current ? 'current' : undefined })),
        { title: 'AgentM: Set phase', placeHolder: 'The phase your agent works in; recall favours what matters in it' },
      )
    )?.label;
    if (phase === undefined) return undefined;
  }
  if (!(PHASES as readonly string[]).includes(phase)) {
    throw new ExtensionError(`'${phase}' is not a phase; use one of ${PHASES.join(', ')}`);
  }
  await updatePhase(phase as Phase);
  ctx.funnel.notify('info', `AgentM: phase set to '${phase}'`);
  return phase as Phase;
}

/** Set provider API key…: stored in VS Code's SecretStorage, never in settings. */
export async function setApiKey(ctx: CommandContext, arg?: unknown): Promise<boolean> {
  const key =
    typeof arg === 'string'
      ? arg
      : await vscode.window.showInputBox({
          title: 'AgentM: Set provider API key',
          prompt: 'API key of the OpenAI-compatible provider in agentm.providers.baseUrl (kept in secret storage)',
          password: true,
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() === '' ? 'Enter a key, or press Escape to keep the current one' : undefined),
        });
  if (key === undefined) return false;
  if (key.trim() === '')
    throw new ExtensionError(
      'an empty API key was given; run "AgentM: Clear provider API key" to remove the key instead',
    );
  await ctx.secrets.store(API_KEY_SECRET, key.trim());
  ctx.funnel.notify('info', 'AgentM: provider API key saved in secret storage');
  return true;
}

export async function clearApiKey(ctx: CommandContext): Promise<boolean> {
  await ctx.secrets.delete(API_KEY_SECRET);
  ctx.funnel.notify('info', 'AgentM: provider API key removed from secret storage');
  return true;
}
