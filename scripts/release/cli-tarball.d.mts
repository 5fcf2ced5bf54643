export const REPO: string;
export const CLI_DIR: string;

export interface PackedCli {
  readonly tarball: string;
  /** Paths inside the package, sorted. */
  readonly files: string[];
  readonly bytes: number;
  readonly manifest: Record<string, unknown> & { name: string; version: string; bin: Record<string, string> };
}

export function publishedManifest(manifest: Record<string, unknown>): Record<string, unknown>;
export function npmEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
export function packCli(outDir: string, options?: { repo?: string }): PackedCli;
