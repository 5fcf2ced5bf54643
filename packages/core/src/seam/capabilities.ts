/** What a backend promises. Every flag defaults to the conservative `false`. */
export interface Capabilities {
  /** Safe under more than one writer process (lock + CAS). */
  readonly concurrentWriters: boolean;
  /** May surface conflict copies (a sync layer's "conflicted copy" files) the engine must tolerate. */
  readonly conflictFiles: boolean;
  /** Content is encrypted at rest by the backend. */
  readonly encryption: boolean;
  /** The tree is replicated by an external sync layer (so no database may live in it). */
  readonly sync: boolean;
}

/** The flags in their canonical order (error messages list missing flags in this order). */
export const CAPABILITY_FLAGS = ['concurrentWriters', 'conflictFiles', 'encryption', 'sync'] as const;
export type CapabilityFlag = (typeof CAPABILITY_FLAGS)[number];

/** agentm's snake_case names, accepted on the command line and in config. */
export const CAPABILITY_SNAKE_NAMES: Readonly<Record<CapabilityFlag, string>> = {
  concurrentWriters: 'concurrent_writers',
  conflictFiles: 'conflict_files',
  encryption: 'encryption',
  sync: 'sync',
};

/** Builds a frozen Capabilities; unspecified flags are `false`. */
export function capabilities(flags: Partial<Capabilities> = {}): Capabilities {
  return Object.freeze({
    concurrentWriters: flags.concurrentWriters === true,
    conflictFiles: flags.conflictFiles === true,
    encryption: flags.encryption === true,
    sync: flags.sync === true,
  });
}

/** Every flag `required` sets that `actual` lacks, in canonical order. All-false `required` always passes. */
export function missingCapabilities(required: Partial<Capabilities>, actual: Capabilities): CapabilityFlag[] {
  return CAPABILITY_FLAGS.filter((flag) => required[flag] === true && actual[flag] !== true);
}
