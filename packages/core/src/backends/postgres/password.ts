import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PostgresSettings } from './settings.js';

/** The parts of the `pgpass` package's parser used here (libpq's ~/.pgpass format: escapes, `*` wildcards, comments). */
interface PgpassHelper {
  parseLine(line: string): Record<string, string> | null;
  isValidEntry(entry: Record<string, string>): boolean;
  match(conn: { host: string; port: number; database: string; user: string }, entry: Record<string, string>): boolean;
}

/** Loaded on first use: the package's own entry reads process.env and warns on stderr; its line parser is what we want. */
async function pgpassHelper(): Promise<PgpassHelper> {
  const loaded = (await import('pgpass/lib/helper.js')) as { default?: PgpassHelper } & PgpassHelper;
  return loaded.default ?? loaded;
}

/**
 * The password for a connection, as libpq finds it: `PGPASSWORD`, else the first matching line of the
 * password file (`PGPASSFILE`, else `~/.pgpass`), which is ignored unless it is a plain file readable by
 * its owner only (mode 0600). `undefined` when neither has one (the server may not need one). Read from
 * the settings' environment, not necessarily this process's.
 */
export async function lookupPassword(settings: PostgresSettings): Promise<string | undefined> {
  const fromEnv = settings.env['PGPASSWORD'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const home = settings.env['HOME'] ?? settings.home;
  const file = settings.env['PGPASSFILE'] ?? (home ? join(home, '.pgpass') : undefined);
  if (file === undefined) return undefined;
  let text: string;
  try {
    const st = await stat(file);
    if (!st.isFile() || (process.platform !== 'win32' && (st.mode & 0o077) !== 0)) return undefined;
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const { parseLine, isValidEntry, match } = await pgpassHelper();
  const conn = { host: settings.host, port: settings.port, database: settings.database, user: settings.user };
  for (const line of text.split(/\r?\n/)) {
    const entry = parseLine(line);
    if (entry && isValidEntry(entry) && match(conn, entry)) return entry['password'];
  }
  return undefined;
}
