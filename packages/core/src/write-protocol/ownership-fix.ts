import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The command that gives `directory` back to the current user: `sudo chown -R $USER <top>`, where
 * `<top>` is the highest ancestor of `directory` that is not ours but sits in a directory that is
 * (e.g. `~/.cache/agentm` after a `sudo agentm` made it), so one command fixes the locks and the index
 * alike. Where ownership cannot be read (Windows) or no ancestor is ours, the directory itself.
 */
export function chownFixFor(directory: string): string {
  const uid = process.getuid?.();
  let top = directory;
  if (uid !== undefined) {
    for (let p = directory; ;) {
      const parent = dirname(p);
      if (parent === p) {
        top = directory; // nothing on the way up is ours: never suggest chown -R of a system directory
        break;
      }
      const owner = statSync(parent, { throwIfNoEntry: false })?.uid;
      if (owner === uid) {
        top = p;
        break;
      }
      p = parent;
    }
  }
  return `sudo chown -R $USER ${top}`;
}
