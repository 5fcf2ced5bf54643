import { shortHash } from '@agentm/core/write-protocol';
import { AgentMPluginError } from '../errors.js';

/** A resolve action that refused to run: nothing was written or removed. */
export class ResolveRefusedError extends AgentMPluginError {}

/** The copy's bytes are not the ones the user reviewed (or it vanished): a sync tool may still be writing it. */
export class CopyChangedError extends ResolveRefusedError {
  constructor(copyPath: string, shownHash: string, actualHash: string | null) {
    super(
      `"${copyPath}" changed since you reviewed it (shown ${shortHash(shownHash)}, now ${actualHash === null ? 'gone' : shortHash(actualHash)}); ` +
        'nothing was changed. Review the new diff in the conflicts view and choose again.',
      { code: 'ECOPYCHANGED' },
    );
  }
}

/** The copy was modified moments ago: a sync tool is probably still writing it. */
export class CopyStillChangingError extends ResolveRefusedError {
  constructor(copyPath: string, ageMs: number, settleMs: number) {
    super(
      `"${copyPath}" was modified ${(ageMs / 1000).toFixed(1)} s ago, so a sync tool may still be writing it; nothing was changed. ` +
        `Wait until it has been quiet for ${(settleMs / 1000).toFixed(0)} s and try again.`,
      { code: 'ECOPYSETTLING' },
    );
  }
}

/** "Keep this copy": the original is not the version shown in the diff any more. */
export class OriginalChangedError extends ResolveRefusedError {
  constructor(originalPath: string, cause: unknown) {
    super(
      `"${originalPath}" changed since the diff was shown, so replacing it could lose that change; nothing was changed. ` +
        'Review the new diff in the conflicts view and choose again.',
      { code: 'EORIGINALCHANGED', cause },
    );
  }
}

/** "I merged it by hand": the original is byte-identical to when the copy was found. */
export class OriginalUnchangedError extends ResolveRefusedError {
  constructor(originalPath: string, copyPath: string) {
    super(
      `"${originalPath}" has not changed since "${copyPath}" was found, so the copy has not been merged into it yet; nothing was removed. ` +
        'Merge the copy\'s changes into the original and save it first, or choose "Keep original" to discard the copy.',
      { code: 'EORIGINALUNCHANGED' },
    );
  }
}

/** A destructive action on a file outside the vault (Drive's lost_and_found), which AgentM only reads. */
export class ReadOnlyConflictError extends ResolveRefusedError {
  constructor(path: string) {
    super(
      `"${path}" is in Google Drive's lost_and_found folder, which AgentM never changes. Use "Bring into vault" to put it beside its original as a conflict copy, then resolve that.`,
      { code: 'EREADONLYCONFLICT' },
    );
  }
}
