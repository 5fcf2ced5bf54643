import { inspectLock, LOCK_STALE_MS, lockDirFor } from '../../write-protocol/vault-lock.js';
import { removeLeftoverTemps, scanStore, TEMP_LEFTOVER_MS, type TempFile } from '../../write-protocol/store-scan.js';
import { findConflictCopies } from '../conflict-copies.js';
import type { DoctorCheck } from './check.js';
import type { DoctorSubject } from './subject.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The doctor's look inside the store, when it is a directory on this machine: the lock every writer
 * takes (held, stale, or stamped in the future), links that lead out of the store, temps crashed
 * writers left behind (with `fix`, removed under the lock), sync conflict copies, and half-done
 * evolves (with `fix`, finished under the lock). Nothing else is ever written. A store without a
 * directory here (a database) gets one check: whether it answers.
 */
export async function storeChecks(ws: DoctorSubject, options: { readonly fix?: boolean } = {}): Promise<DoctorCheck[]> {
  const root = ws.localRoot;
  if (root === undefined) return remoteStoreChecks(ws);
  const scan = await scanStore(root);
  return [
    await lockCheck(root, ws.lockRoot),
    linksCheck(root, scan.outsideLinks),
    await tempsCheck(root, scan.leftoverTemps, options.fix === true, ws.lockRoot),
    await conflictsCheck(ws),
    await evolvesCheck(ws, options.fix === true),
  ];
}

/**
 * Whether a store without a directory here answers, which is what every verb needs first (the
 * connection, the credentials, the database, a schema this AgentM knows). The failure is the backend's
 * own typed error, naming the fix; it never carries a password.
 */
async function remoteStoreChecks(ws: DoctorSubject): Promise<DoctorCheck[]> {
  const store = ws.backend.storeId;
  if (store === undefined) return [];
  try {
    const top = await ws.backend.list(ws.backend.resolve());
    return [{ id: 'store', status: 'ok', message: `${store} answers (${top.length} top-level entries)` }];
  } catch (error) {
    return [{ id: 'store', status: 'fail', message: (error as Error).message }];
  }
}

async function lockCheck(root: string, lockRoot: string): Promise<DoctorCheck> {
  const lockDir = lockDirFor(root, lockRoot);
  const status = await inspectLock(root, { lockRoot });
  const age = status.heartbeatAgeMs;
  if (!status.present || age === undefined) return { id: 'lock', status: 'ok', message: `free (${lockDir})` };
  if (age < 0)
    return {
      id: 'lock',
      status: 'warn',
      message:
        `${lockDir}: its heartbeat is ${seconds(-age)} in the future (a clock step, or a writer that stamps ahead). ` +
        `Writers take it over once it has stood unchanged for ${seconds(LOCK_STALE_MS)}`,
      fix: `if no agent is running, remove it: rmdir ${lockDir}`,
    };
  if (status.stale)
    return {
      id: 'lock',
      status: 'warn',
      message: `${lockDir} is stale (heartbeat ${seconds(age)} ago): its holder is gone`,
      fix: 'nothing to do: the next writer takes it over',
    };
  const holder = status.heldByThisProcess ? 'this process' : 'a running writer';
  return { id: 'lock', status: 'ok', message: `held by ${holder} (heartbeat ${seconds(age)} ago)` };
}

function linksCheck(root: string, links: readonly { key: string; target: string }[]): DoctorCheck {
  if (links.length === 0) return { id: 'links', status: 'ok', message: 'no symbolic link leads out of the store' };
  return {
    id: 'links',
    status: 'warn',
    message: `${links.length} symbolic link(s) lead out of the store ${root}; AgentM never reads through them`,
    fix: 'replace each with a real file or folder inside the store',
    details: links.map((l) => `${l.key} → ${l.target}`),
  };
}

const tempLines = (temps: readonly TempFile[]) =>
  temps.map((t) => `${t.key} (writer pid ${t.pid ?? '?'}, ${seconds(t.ageMs)} old)`);

async function tempsCheck(
  root: string,
  temps: readonly TempFile[],
  fix: boolean,
  lockRoot: string,
): Promise<DoctorCheck> {
  if (temps.length === 0) return { id: 'temps', status: 'ok', message: 'no leftover temp files' };
  if (!fix)
    return {
      id: 'temps',
      status: 'warn',
      message:
        `${temps.length} leftover temp file(s), older than ${seconds(TEMP_LEFTOVER_MS)}, from writers no longer ` +
        'running (never listed or read, but they take space)',
      fix: 'remove them with: agentm doctor --fix',
      details: tempLines(temps),
    };
  const { removed, failed } = await removeLeftoverTemps(root, temps, { lockRoot });
  if (failed.length > 0)
    return {
      id: 'temps',
      status: 'warn',
      message: `removed ${removed.length} leftover temp file(s); ${failed.length} could not be removed`,
      details: failed.map((f) => `${f.temp.key}: ${f.error}`),
    };
  return {
    id: 'temps',
    status: 'ok',
    message: `removed ${removed.length} leftover temp file(s) under the lock`,
    details: tempLines(removed),
  };
}

/** Sync conflict copies of notes, plans and progress logs: each holds someone's edit that no reader sees. */
async function conflictsCheck(ws: DoctorSubject): Promise<DoctorCheck> {
  const copies = await findConflictCopies(ws.backend, ws.layout);
  if (copies.length === 0) return { id: 'conflicts', status: 'ok', message: 'no sync conflict copies' };
  return {
    id: 'conflicts',
    status: 'warn',
    message: `${copies.length} sync conflict ${copies.length === 1 ? 'copy' : 'copies'}: each holds an edit that AgentM does not read`,
    fix: 'merge each copy into its original by hand (Obsidian: the AgentM Conflicts view), then delete the copy',
    details: copies.map((c) => `${c.copy} (copy of ${c.base})`),
  };
}

/**
 * Evolves killed between their writes (half-done-evolves.ts): an archive that says superseded beside a
 * note still holding the archived text. Reported; with `fix`, each is finished under the lock.
 */
async function evolvesCheck(ws: DoctorSubject, fix: boolean): Promise<DoctorCheck> {
  const { describeHalfDoneEvolve, findHalfDoneEvolves, finishHalfDoneEvolve } =
    await import('../../memory/notes/half-done-evolves.js');
  const found = await findHalfDoneEvolves(ws.backend, ws.memorySpace);
  if (found.length === 0) return { id: 'evolves', status: 'ok', message: 'no evolve left half-done' };
  if (!fix)
    return {
      id: 'evolves',
      status: 'warn',
      message:
        `${found.length} evolve(s) were interrupted between their writes ` +
        '(the archive says superseded, the note still holds the archived text)',
      fix: 'finish them with: agentm doctor --fix',
      details: found.map((h) => describeHalfDoneEvolve(h)),
    };
  const finished: typeof found = [];
  for (const half of found) if (await finishHalfDoneEvolve(ws.backend, half, ws.memorySpace)) finished.push(half);
  return {
    id: 'evolves',
    status: 'ok',
    message: `finished ${finished.length} interrupted evolve(s) under the lock`,
    details: finished.map((h) => describeHalfDoneEvolve(h, true)),
  };
}
