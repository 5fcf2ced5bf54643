import type { Command } from 'commander';

/** Examples shown after each command's `--help`, by command name (`config set` for a subcommand). */
const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  agentm: [
    'agentm init                         # point AgentM at a vault and bind this repo',
    'agentm doctor                       # is everything configured and reachable?',
    'agentm save fix stale-lock --body-file notes.md',
    'agentm recall "lock timeout"',
    'agentm plan "add a --json flag to trace" && agentm run --plan add-a-json-flag-to-trace',
  ],
  init: [
    'agentm init',
    'agentm init --vault ~/Vault --memory-root Agent --project my-app --yes',
    'agentm init --chat-url http://127.0.0.1:11434/v1 --chat-model llama3.1 --yes',
  ],
  doctor: [
    'agentm doctor',
    'agentm doctor --providers        # also ask each configured endpoint',
    'agentm doctor --json',
  ],
  'config get': ['agentm config get vault_path'],
  'config set': [
    'agentm config set vault_path ~/Vault',
    'agentm config set providers.chat.model llama3.1',
    'agentm config set spaces \'{"projects": "desk/projects"}\' --json',
  ],
  'config list': ['agentm config list', 'agentm config list --json'],
  save: [
    'agentm save fix stale-lock --body-file notes.md',
    'echo "Prefer pnpm" | agentm save preference use-pnpm --body-file - --tags tooling',
  ],
  evolve: ['agentm evolve memory/fix/stale-lock.md --reason "the lock moved" --body-file new.md'],
  recall: ['agentm recall "lock timeout"', 'agentm recall parser --limit 3 --kinds fix,convention --json'],
  reindex: ['agentm reindex', 'agentm reindex --full'],
  export: [
    'agentm export --to ~/TeamVault/Agent   # read the team store in Obsidian',
    'agentm export --to ./copy --json',
  ],
  import: ['agentm import --from ~/Vault/Agent', 'agentm import --from ~/Vault/Agent --replace --json'],
  consolidate: ['agentm consolidate --dry-run', 'agentm consolidate --all-projects --json'],
  plan: ['agentm plan "add a --json flag to trace"', 'agentm plan "tidy the README" --name readme --json'],
  run: ['agentm run --plan readme', 'agentm run --plan readme --yes --quiet', 'agentm run --json | jq .failed'],
  retry: ['agentm retry test --plan readme', 'agentm retry --all-failed --plan readme && agentm run --plan readme'],
  trace: ['agentm trace --plan readme', 'agentm trace --plan readme --json'],
  plans: ['agentm plans', 'agentm plans --json'],
  completion: [
    'agentm completion bash > ~/.local/share/bash-completion/completions/agentm',
    'agentm completion zsh > "${fpath[1]}/_agentm"',
    'agentm completion fish > ~/.config/fish/completions/agentm.fish',
  ],
};

/** The full name of a command as EXAMPLES keys it (`config set`). */
function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c && c.parent; c = c.parent) names.unshift(c.name());
  return names.length === 0 ? 'agentm' : names.join(' ');
}

/** Adds an "Examples:" section after the help of every command that has examples (recursively). */
export function addHelpExamples(command: Command): void {
  const examples = EXAMPLES[pathOf(command)];
  if (examples) command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  for (const sub of command.commands) addHelpExamples(sub);
}
