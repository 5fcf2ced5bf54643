import { mkdtemp, readdir, readFile, readlink, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

/** A fresh temp directory, removed after the test. */
export async function tempDir(prefix = 'agentm-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterEach(async () => {
  const dirs = made.splice(0);
  await stopProcessesIn(dirs);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * Ends the processes still working in `dirs` (their current directory inside one) and waits until they
 * are gone: a command may leave a detached child behind by design (`agentm init` embedding the notes, an
 * answer's background walk), and removing its directories while it writes there fails the removal with
 * ENOTEMPTY. Linux only (/proc); elsewhere nothing to wait on.
 */
async function stopProcessesIn(dirs: readonly string[]): Promise<void> {
  if (dirs.length === 0) return;
  const real = await Promise.all(dirs.map((d) => realpath(d).catch(() => d)));
  const inside = (cwd: string) => real.some((d) => cwd === d || cwd.startsWith(`${d}/`));
  const running = async () => {
    let pids: string[];
    try {
      pids = (await readdir('/proc')).filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
    } catch {
      return [];
    }
    const found: number[] = [];
    for (const pid of pids) {
      // A process gone meanwhile, a zombie (no cwd) or another user's: not ours to wait on.
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
      if (cwd !== undefined && inside(cwd)) found.push(Number(pid));
    }
    return found;
  };
  for (let left = await running(); left.length > 0; left = await running()) {
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every file under `root` (relative path → its mtime and bytes): compare two snapshots to prove nothing was written. */
export async function fileSnapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else out[path.slice(root.length + 1)] = `${(await stat(path)).mtimeMs} ${await readFile(path, 'utf8')}`;
    }
  };
  await walk(root);
  return out;
}
