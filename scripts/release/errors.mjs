/** A release step that cannot go on: the message names the thing, the reason and the fix. */
export class ReleaseError extends Error {
  name = 'ReleaseError';
  code = 'RELEASE_FAILED';
}

/** A version (or a manifest's version) that the release cannot use. */
export class VersionError extends ReleaseError {
  name = 'VersionError';
  code = 'BAD_VERSION';
}
