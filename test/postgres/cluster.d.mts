export const SUPERUSER: string;
export class ClusterError extends Error {}
export interface Cluster {
  readonly dir: string;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** A URL with the password, for test set-up only (AgentM itself refuses one). */
  readonly adminUrl: string;
  restart(): void;
  stop(): void;
}
export function findPgBin(env?: NodeJS.ProcessEnv): string | undefined;
export function removeStaleClusters(bin: string): void;
export function startCluster(options?: { owner?: number; bin?: string }): Promise<Cluster>;
export function stopCluster(dir: string, bin?: string): void;
export function splitPassword(url: string): { url: string; password: string };
