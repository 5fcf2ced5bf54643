/** A word as a POSIX shell reads it back: as is when it has nothing the shell would interpret, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w.@%+=:,/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The `--plan` argument that names `name` again, for a command a person copies (none for the default PLAN.md). */
export function planFlag(name: string, explicit: boolean): string {
  return name === 'PLAN' && !explicit ? '' : ` --plan ${shellWord(name)}`;
}
