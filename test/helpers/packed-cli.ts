import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { npmEnv, packCli, type PackedCli } from '../../scripts/release/cli-tarball.mjs';
import type { CliResult } from './cli.js';

export type { PackedCli };

/**
 * This process's PATH without the workspace's `node_modules/.bin` folders (vitest under pnpm adds them):
 * a user's machine has no AgentM workspace, so `agentm` is found only where a test puts it.
 */
export function pathWithoutWorkspace(env: NodeJS.ProcessEnv = process.env): string {
  const entries = (env['PATH'] ?? '').split(delimiter).filter((p) => p && !p.includes(join('node_modules', '.bin')));
  return [dirname(process.execPath), ...entries].join(delimiter);
}

const scratch: string[] = [];
afterAll(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A temp directory kept for the whole test file (an install shared by its tests), removed after it. */
export async function fileScopedDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

let packed: Promise<PackedCli> | undefined;
/** @agentm/cli packed by the release script (what the release workflow publishes), once per test file. */
export function packedCli(): Promise<PackedCli> {
  packed ??= fileScopedDir('agentm-packed-').then((dir) => packCli(dir));
  return packed;
}

/** Runs `command` with `env` as its whole environment; resolves with its exit code and output. */
export function run(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; stdin?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A command that exits without reading its input (`sh -c 'command -v agentm'`) closes the pipe first.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(options.stdin ?? '');
  });
}

export interface InstalledCli {
  /** The npm prefix it went into (`npm_config_prefix`). */
  readonly prefix: string;
  /** `<prefix>/bin`, for PATH. */
  readonly binDir: string;
  /** `<prefix>/bin/agentm`. */
  readonly bin: string;
  /** The installed package's folder. */
  readonly packageDir: string;
  /** npm's own output of the install. */
  readonly log: CliResult;
}

/**
 * `npm install -g <tarball> --offline` as a user runs it, into a fresh prefix with `home` as HOME (an
 * empty npm cache): it succeeds only if the tarball needs nothing from a registry.
 */
export async function installCli(tarball: string, root: string, home: string): Promise<InstalledCli> {
  const prefix = join(root, 'prefix');
  const env = npmEnv({ HOME: home, PATH: pathWithoutWorkspace(), npm_config_prefix: prefix });
  const log = await run('npm', ['install', '--global', tarball, '--offline'], { env, cwd: root });
  if (log.code !== 0) throw new Error(`npm install -g ${tarball} failed:\n${log.stdout}\n${log.stderr}`);
  const binDir = join(prefix, 'bin');
  return {
    prefix,
    binDir,
    bin: join(binDir, 'agentm'),
    packageDir: join(prefix, 'lib', 'node_modules', '@agentm', 'cli'),
    log,
  };
}
