// The line parser of the `pgpass` package (CommonJS, untyped): libpq's ~/.pgpass format.
declare module 'pgpass/lib/helper.js' {
  export function parseLine(line: string): Record<string, string> | null;
  export function isValidEntry(entry: Record<string, string>): boolean;
  export function match(
    conn: { host: string; port: number; database: string; user: string },
    entry: Record<string, string>,
  ): boolean;
}
