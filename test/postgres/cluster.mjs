// A throw-away PostgreSQL cluster for the tests and the postgres benchmark: `initdb` in a temp dir, then
// `pg_ctl` on a free port of 127.0.0.1 (never another address), password authentication (scram) for TCP.
// PostgreSQL refuses to run as root, so as root both run as `nobody` through `runuser`; as anyone else,
// as that user. Nothing is installed here (test/postgres/setup.mjs does that, before vitest): a machine
// without PostgreSQL gets a clear error naming the fix.
//
// A cluster records the process that started it (owner.pid); `startCluster` first removes clusters whose
// owner is gone (a run killed before its teardown), so a crash never leaves servers behind for long.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SUPERUSER = 'agentm_admin';
const PREFIX = 'agentm-pg-';
const NOBODY = { name: 'nobody', uid: 65534, gid: 65534 };

export class ClusterError extends Error {
  name = 'ClusterError';
}

/** The directory holding `initdb` and `pg_ctl`: $AGENTM_PG_BIN, Debian's newest /usr/lib/postgresql/<v>/bin, or PATH. */
export function findPgBin(env = process.env) {
  if (env.AGENTM_PG_BIN) return env.AGENTM_PG_BIN;
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(base, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim() !== '') return join(which.stdout.trim(), '..');
  return undefined;
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL program as the cluster's user (nobody when we are root). Throws with its output on failure. */
function runPg(bin, program, args, what) {
  const command = join(bin, program);
  const r = isRoot()
    ? spawnSync('runuser', ['-u', NOBODY.name, '--', command, ...args], { encoding: 'utf8', cwd: '/' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new ClusterError(
      `${what} failed (${program} ${args.join(' ')}): ${r.error?.message ?? ''}${r.stdout}${r.stderr}`,
    );
  return r.stdout;
}

/** A port of 127.0.0.1 that was free a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Stops and removes clusters left by runs that ended without their teardown (their owner process is gone). */
export function removeStaleClusters(bin) {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let owner;
    try {
      owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
    } catch {
      continue; // being created right now, or not ours
    }
    if (!Number.isInteger(owner) || alive(owner)) continue;
    try {
      if (existsSync(join(dir, 'data', 'postmaster.pid')))
        runPg(bin, 'pg_ctl', ['stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w'], 'stopping a stale cluster');
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Creates and starts a cluster. Returns its connection facts and `stop()` (stops it and removes its
 * directory) and `restart()` (`pg_ctl restart -m fast`). `owner` is the pid whose end makes it stale.
 */
export async function startCluster({ owner = process.pid, bin = findPgBin() } = {}) {
  if (bin === undefined)
    throw new ClusterError(
      'PostgreSQL is not installed (no initdb): run `node test/postgres/setup.mjs` as root (it installs the Debian ' +
        'package postgresql), install PostgreSQL yourself, or point the tests at a server with AGENTM_TEST_PG_URL',
    );
  removeStaleClusters(bin);
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  writeFileSync(join(dir, 'owner.pid'), String(owner));
  const data = join(dir, 'data');
  const sockets = join(dir, 'sockets');
  mkdirSync(sockets);
  const password = randomBytes(18).toString('base64url');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (isRoot()) for (const path of [dir, sockets, pwfile]) chownSync(path, NOBODY.uid, NOBODY.gid);
  try {
    runPg(
      bin,
      'initdb',
      [
        '-D',
        data,
        '-U',
        SUPERUSER,
        `--pwfile=${pwfile}`,
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
        '-E',
        'UTF8',
        '--no-sync',
        '--no-instructions',
      ],
      'initdb',
    );
    rmSync(pwfile);
    let port;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const options = [`-c listen_addresses=127.0.0.1`, `-p ${port}`, `-k ${sockets}`, '-c max_connections=300'].join(
        ' ',
      );
      try {
        runPg(
          bin,
          'pg_ctl',
          ['start', '-D', data, '-w', '-t', '60', '-l', join(dir, 'server.log'), '-o', options],
          'pg_ctl start',
        );
        break;
      } catch (error) {
        if (attempt >= 3) throw error; // the port was taken in between: try another
      }
    }
    return {
      dir,
      host: '127.0.0.1',
      port,
      user: SUPERUSER,
      password,
      /** A URL with the password, for test set-up only (AgentM itself refuses one). */
      adminUrl: `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
      // -l again: without it the restarted server would write to (and hold open) our stdout pipe.
      restart: () =>
        runPg(
          bin,
          'pg_ctl',
          ['restart', '-D', data, '-m', 'fast', '-w', '-t', '60', '-l', join(dir, 'server.log')],
          'pg_ctl restart',
        ),
      stop: () => stopCluster(dir, bin),
    };
  } catch (error) {
    stopCluster(dir, bin);
    throw error;
  }
}

/** Stops the cluster in `dir` (immediately: it is thrown away) and removes the directory. */
export function stopCluster(dir, bin = findPgBin()) {
  try {
    if (bin && existsSync(join(dir, 'data', 'postmaster.pid')))
      runPg(bin, 'pg_ctl', ['stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w'], 'pg_ctl stop');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `postgres://user:password@host:port/db` split into a password-free URL and the password (AgentM takes it from PGPASSWORD). */
export function splitPassword(url) {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), password };
}
