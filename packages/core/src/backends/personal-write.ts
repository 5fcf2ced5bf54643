import { join, resolve } from 'node:path';
import type { WriteOptions } from '../seam/backend.js';
import { AgentMError } from '../seam/errors.js';
import type { Locator } from '../seam/locator.js';
import { casWriteFile, type CasWriteOptions } from '../write-protocol/cas-write.js';
import { BackendConfigError } from './errors.js';
import { assertWithin, realpathOfNearest } from './fs-backend.js';

/** Every authorization `authorizePersonalWrite` ever made. A look-alike object literal is not in it. */
const issued = new WeakSet<object>();

/** Proof that an operator asked for a write into their personal space. Only `authorizePersonalWrite` makes one. */
export interface PersonalWriteAuthorization {
  readonly reason: string;
  readonly issuedAt: Date;
}

/** A personal-space write without a valid authorization. Nothing was written. */
export class PersonalWriteRefusedError extends AgentMError {
  constructor(message: string) {
    super(message, { code: 'EPERSONALWRITE' });
  }
}

/**
 * Authorizes one kind of write into the operator's personal space, for a stated reason (non-empty).
 * Call it only when the operator asked for the write; pass the result to `writePersonal`.
 */
export function authorizePersonalWrite(reason: string): PersonalWriteAuthorization {
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new PersonalWriteRefusedError(
      'authorizePersonalWrite needs a non-empty reason (what the operator asked for); a personal-space write is never implicit',
    );
  }
  const authorization = Object.freeze({ reason: reason.trim(), issuedAt: new Date() });
  issued.add(authorization);
  return authorization;
}

/** Whether `value` is an authorization made by `authorizePersonalWrite` (not a copy, not a literal). */
export function isPersonalWriteAuthorization(value: unknown): value is PersonalWriteAuthorization {
  return typeof value === 'object' && value !== null && issued.has(value);
}

export interface PersonalTarget {
  readonly personalRoot: string | undefined;
  readonly critical: NonNullable<CasWriteOptions['critical']>;
}

/** The shared body of `writePersonal`: authorization, containment, then the locked CAS write. */
export async function writePersonalFile(
  target: PersonalTarget,
  locator: Locator,
  content: string,
  authorization: PersonalWriteAuthorization,
  options: WriteOptions = {},
): Promise<Locator> {
  if (!isPersonalWriteAuthorization(authorization)) {
    throw new PersonalWriteRefusedError(
      `refusing to write ${JSON.stringify(locator.key)} into the personal space: no authorization. ` +
        'Pass the object returned by authorizePersonalWrite(reason), made when the operator asked for this write.',
    );
  }
  if (target.personalRoot === undefined) {
    throw new BackendConfigError(
      'this vault backend has no personal space: construct it with personalRoot (selection sets it to plugins.obsidian-vault.vault_path)',
    );
  }
  if (typeof content !== 'string')
    throw new TypeError(`writePersonal(${JSON.stringify(locator.key)}) takes text; got ${typeof content}`);
  const root = resolve(target.personalRoot);
  const path = locator.isRoot ? root : join(root, ...locator.parts);
  assertWithin(locator.key, realpathOfNearest(path), realpathOfNearest(root));
  await casWriteFile(path, content, {
    expectHash: options.expectHash,
    label: `personal:${locator.key}`,
    critical: target.critical,
  });
  return locator;
}
