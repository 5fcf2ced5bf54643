import { printable } from '../seam/printable.js';

/**
 * Directory entries a filesystem backend leaves out of its listings — a name the seam cannot express
 * (a backslash), a link that leads out of the store — reported once per entry and process, so one odd
 * file never breaks a walk and never floods the output of a long-lived process either.
 */
export type SkippedEntrySink = (message: string) => void;

const defaultSink: SkippedEntrySink = (message) => void process.stderr.write(`agentm: warning: ${message}\n`);
let sink: SkippedEntrySink = defaultSink;
const reported = new Set<string>();

/** Where skipped-entry warnings go (default: a line on stderr). Editors route them to their log. */
export function setSkippedEntrySink(next: SkippedEntrySink | undefined): void {
  sink = next ?? defaultSink;
}

/** Reports `path` as skipped for `reason`, unless it was already reported by this process. */
export function reportSkippedEntry(path: string, reason: string): void {
  if (reported.has(path)) return;
  reported.add(path);
  sink(printable(`skipped ${path}: ${reason}`));
}
