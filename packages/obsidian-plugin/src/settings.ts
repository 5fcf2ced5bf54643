/** The plugin's settings, as stored by `saveData` in `.obsidian/plugins/agentm-vault/data.json`. */
export interface AgentMSettings {
  /** Vault-relative memory root folder; empty = default (agentm's config when present, else the vault root); `/` = vault root. */
  memoryRoot: string;
  /** How long a write waits for an agent holding the vault lock, in seconds (1–120). */
  lockWaitSeconds: number;
  /** Whether the conflicts view also lists Google Drive's lost_and_found folder. */
  scanLostAndFound: boolean;
  /** The project the commands use when the active file is not inside a project folder; empty = none. */
  defaultProject: string;
}

export const DEFAULT_SETTINGS: Readonly<AgentMSettings> = Object.freeze({
  memoryRoot: '',
  lockWaitSeconds: 10,
  scanLostAndFound: true,
  defaultProject: '',
});

export const LOCK_WAIT_RANGE = { min: 1, max: 120 } as const;

/** Settings from stored data: unknown keys dropped, wrong types replaced by defaults, the wait clamped. */
export function parseSettings(data: unknown): AgentMSettings {
  const raw = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const wait =
    typeof raw['lockWaitSeconds'] === 'number' && Number.isFinite(raw['lockWaitSeconds'])
      ? raw['lockWaitSeconds']
      : DEFAULT_SETTINGS.lockWaitSeconds;
  return {
    memoryRoot: typeof raw['memoryRoot'] === 'string' ? raw['memoryRoot'] : DEFAULT_SETTINGS.memoryRoot,
    lockWaitSeconds: Math.min(LOCK_WAIT_RANGE.max, Math.max(LOCK_WAIT_RANGE.min, wait)),
    scanLostAndFound:
      typeof raw['scanLostAndFound'] === 'boolean' ? raw['scanLostAndFound'] : DEFAULT_SETTINGS.scanLostAndFound,
    defaultProject: typeof raw['defaultProject'] === 'string' ? raw['defaultProject'] : DEFAULT_SETTINGS.defaultProject,
  };
}
