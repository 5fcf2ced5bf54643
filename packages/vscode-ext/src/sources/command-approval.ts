import * as vscode from 'vscode';
import type { ApprovalAsker, ApprovalPrompt } from '@agentm/core/harness';

const RUN = 'Run and remember';

/**
 * The VS Code side of the trust model: a modal dialog names the command, the repo and who wants it;
 * only "Run and remember" approves (it is then recorded for this repo in this machine's approvals file,
 * shared with the `agentm` CLI). Dismissing the dialog declines: the step fails naming how to consent.
 */
export const askInModal: ApprovalAsker = async (p: ApprovalPrompt) => {
  const choice = await vscode.window.showWarningMessage(
    `AgentM: ${p.origin} wants to run a command that has not been approved in this repository.`,
    {
      modal: true,
      detail:
        `${p.command}\n\nin ${p.repo}\n\n` +
        'Plans sync with your vault: any device, collaborator or plugin that can write to it can add a command, and a ' +
        "model chooses its own. Approve only what you would run yourself; it runs without a shell, with AgentM's keys removed from its environment.",
    },
    RUN,
  );
  return choice === RUN;
};
