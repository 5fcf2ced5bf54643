import type { Command, Option } from 'commander';

/** A completion candidate, with what it is (shown by zsh and fish). */
export interface Candidate {
  readonly value: string;
  readonly about?: string;
}

/** Values that cost a read of the store or the plan (plan names, step ids); asked for only when needed. */
export interface DynamicValues {
  plans(): Promise<string[]>;
  steps(plan: string | undefined): Promise<Array<{ id: string; title: string; status: string }>>;
  configKeys(): Promise<string[]>;
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * bash splits `--plan=x` at `=` (COMP_WORDBREAKS): put such words back together, except the word being
 * typed: bash replaces only what follows the `=`, so there the value is completed as a word of its own.
 */
function joinEquals(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const last = i >= words.length - 2;
    if (w === '=' && last && out.length > 0 && out[out.length - 1]!.startsWith('--')) {
      out.push(words[i + 1] ?? '');
      break;
    }
    if (w === '=' && out.length > 0 && out[out.length - 1]!.startsWith('--')) {
      out[out.length - 1] += `=${words[i + 1] ?? ''}`;
      i++;
    } else out.push(w);
  }
  return out;
}

const takesValue = (o: Option) => o.required || o.optional;

/**
 * What completes the last of `typed` (the words after `agentm`, the last one being typed, maybe
 * empty), read from the command tree itself: subcommands, options, and the values AgentM knows
 * (plan names for `--plan` and `switch`, step ids for `retry`, config keys, shells). Filtered by what was typed.
 */
export async function complete(
  program: Command,
  typed: readonly string[],
  values: DynamicValues,
): Promise<Candidate[]> {
  const help = program.createHelp();
  const words = joinEquals(typed.length === 0 ? [''] : typed);
  const current = words[words.length - 1]!;
  let command = program;
  let pendingOption: Option | undefined;
  let plan: string | undefined;
  const positionals: string[] = [];
  for (const word of words.slice(0, -1)) {
    if (pendingOption) {
      if (pendingOption.long === '--plan') plan = word;
      pendingOption = undefined;
      continue;
    }
    if (word.startsWith('-')) {
      const [flag, inline] = word.split('=', 2) as [string, string | undefined];
      const option = command.options.find((o) => o.long === flag || o.short === flag);
      if (option?.long === '--plan' && inline !== undefined) plan = inline;
      if (option && takesValue(option) && inline === undefined) pendingOption = option;
      continue;
    }
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub && positionals.length === 0) command = sub;
    else positionals.push(word);
  }
  const path = commandPath(command);
  const filter = (cs: Candidate[]) => cs.filter((c) => c.value.startsWith(current));

  // The value of an option.
  if (pendingOption) {
    if (pendingOption.long === '--plan') return filter((await values.plans()).map((value) => ({ value })));
    return []; // a file, a directory, free text: the shell's own completion
  }
  if (current.startsWith('--plan=') && command.options.some((o) => o.long === '--plan')) {
    const prefix = current.slice('--plan='.length);
    return (await values.plans()).filter((p) => p.startsWith(prefix)).map((p) => ({ value: `--plan=${p}` }));
  }
  if (current.startsWith('-'))
    return filter(
      help
        .visibleOptions(command)
        .filter((o) => o.long !== undefined)
        .map((o) => ({ value: o.long!, about: o.description })),
    );

  const subcommands = help
    .visibleCommands(command)
    .filter((c) => c.name() !== 'help' || command === program)
    .map((c) => ({ value: c.name(), about: c.description() }));
  if (subcommands.length > 0 && positionals.length === 0 && command.commands.length > 0) return filter(subcommands);

  // Positional values of the commands that have known ones.
  if (path === 'retry') {
    const steps = await values.steps(plan);
    return filter(
      steps
        .filter((s) => !positionals.includes(s.id))
        .sort((a, b) => Number(b.status === 'failed') - Number(a.status === 'failed'))
        .map((s) => ({ value: s.id, about: `${s.status}: ${s.title}` })),
    );
  }
  if (path === 'switch' && positionals.length === 0) return filter((await values.plans()).map((value) => ({ value })));
  if (path === 'completion' && positionals.length === 0) return filter(SHELLS.map((value) => ({ value })));
  if (['config get', 'config set', 'config unset'].includes(path) && positionals.length === 0)
    return filter((await values.configKeys()).map((value) => ({ value })));
  if (path === 'state-path' && positionals.length === 0) return filter([{ value: 'plan' }, { value: 'progress' }]);
  if (path === 'help') return filter(subcommandsOf(program, help));
  return [];
}

function subcommandsOf(program: Command, help: ReturnType<Command['createHelp']>): Candidate[] {
  return help
    .visibleCommands(program)
    .filter((c) => c.name() !== 'help')
    .map((c) => ({ value: c.name(), about: c.description() }));
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Candidates as a shell's script reads them: one per line, `value<TAB>about` for fish, values only else. */
export function formatCandidates(candidates: readonly Candidate[], shell: Shell): string {
  const one = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
  return candidates
    .map((c) => (shell === 'fish' && c.about ? `${one(c.value)}\t${one(c.about)}` : one(c.value)))
    .map((l) => `${l}\n`)
    .join('');
}

/**
 * The script a shell loads for `agentm`: it hands the words typed so far to `agentm __complete` (so
 * the candidates always match the installed version's commands) and falls back to file names when
 * there is nothing better (a `--body-file`, a `--cwd`).
 */
export function completionScript(shell: Shell): string {
  switch (shell) {
    case 'bash':
      return `# agentm completion for bash: source it, or save it as ~/.local/share/bash-completion/completions/agentm
_agentm_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(agentm __complete --shell bash -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _agentm_complete agentm
`;
    case 'zsh':
      return `#compdef agentm
# agentm completion for zsh: save it as _agentm in a folder of $fpath (or source it after compinit)
_agentm() {
  local -a candidates
  candidates=("\${(@f)$(agentm __complete --shell zsh -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if (( \${#candidates} )) && [[ -n "\${candidates[1]}" ]]; then
    compadd -- "\${candidates[@]}"
  else
    _files
  fi
}
if [[ "\${funcstack[1]}" == "_agentm" ]]; then
  _agentm "$@"
elif (( $+functions[compdef] )); then
  compdef _agentm agentm
fi
`;
    case 'fish':
      return `# agentm completion for fish: save it as ~/.config/fish/completions/agentm.fish
# Asked once per <Tab>: with candidates, only they are offered; without, fish completes file names.
function __agentm_prepare_completions
    set -l words (commandline -opc) (commandline -ct)
    set -g __agentm_comp_results (agentm __complete --shell fish -- $words[2..-1] 2>/dev/null)
    test (count $__agentm_comp_results) -gt 0
end
complete -c agentm -e
complete -c agentm -n __agentm_prepare_completions -f -a '$__agentm_comp_results'
`;
  }
}
