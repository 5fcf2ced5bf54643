/**
 * The command line of a background refresh of the memory index: a full walk (finding what other programs
 * changed in place) and the embeddings still missing, run detached by a short-lived process that answered
 * without walking (`WorkspaceOptions.index.revalidate`). One runs at a time per index; it prints nothing.
 */
export const BACKGROUND_REFRESH_ARGS: readonly string[] = Object.freeze(['reindex', '--background']);
