import { userInfo } from 'node:os';
import { PostgresConfigError } from './errors.js';

/** Config keys and the environment variable the postgres backend reads. */
export const KEY_PG_URL = 'postgres.url';
export const KEY_PG_SCHEMA = 'postgres.schema';
export const KEY_PG_LEASE_MS = 'postgres.lease_ms';
export const ENV_PG_URL = 'AGENTM_PG_URL';
export const DEFAULT_SCHEMA = 'agentm';
export const DEFAULT_LEASE_MS = 30_000;

/** What the backend connects with. The password is never part of it: `passwordFor` looks it up per connection. */
export interface PostgresSettings {
  /** `postgres://user@host:port/database?schema=…`: the store's name in every message (no secret in it). */
  readonly storeId: string;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  readonly schema: string;
  readonly leaseTtlMs: number;
  /** `false`, or the driver's TLS options (from `sslmode`). */
  readonly ssl: false | { readonly rejectUnauthorized: boolean };
  readonly connectTimeoutMs: number;
  /** The environment `PGPASSWORD`, `PGPASSFILE` and `HOME` are read from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string | undefined;
}

/** What a caller (selection, a test, a tool) gives the backend. */
export interface PostgresSettingsInput {
  readonly url?: string | undefined;
  readonly schema?: string | undefined;
  readonly leaseMs?: number | undefined;
  /** `.agentm-config.json` (for `postgres.url`, `postgres.schema`, `postgres.lease_ms`). */
  readonly config?: Readonly<Record<string, unknown>> | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly home?: string | undefined;
}

/** At most 56 characters: the notification channel `agentm_<schema>` must fit PostgreSQL's 63. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,55}$/;
const SSL_MODES: Readonly<Record<string, PostgresSettings['ssl']>> = {
  disable: false,
  allow: false,
  prefer: false,
  require: { rejectUnauthorized: false },
  'verify-ca': { rejectUnauthorized: true },
  'verify-full': { rejectUnauthorized: true },
};
const KNOWN_PARAMS = new Set(['sslmode', 'host', 'port', 'user', 'dbname', 'connect_timeout', 'application_name']);

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** Where the URL came from, for messages (never the URL itself when it may hold a password). */
function urlSource(input: PostgresSettingsInput): { url: string; from: string } | undefined {
  const explicit = nonEmpty(input.url);
  if (explicit) return { url: explicit, from: 'the postgres URL given' };
  const env = nonEmpty(input.env?.[ENV_PG_URL]);
  if (env) return { url: env, from: ENV_PG_URL };
  const config = nonEmpty(input.config?.[KEY_PG_URL]);
  if (config) return { url: config, from: `${KEY_PG_URL} in .agentm-config.json` };
  return undefined;
}

/**
 * The connection settings, from (first wins) an explicit `url`, `AGENTM_PG_URL`, config `postgres.url`,
 * then the standard `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE` for what the URL leaves out. Throws
 * `PostgresConfigError` when nothing names a server, the URL does not parse, or it holds a password
 * (a password belongs in `~/.pgpass` or `PGPASSWORD`, never in a file that may be synced or shown) —
 * without ever repeating the URL's password.
 */
export function postgresSettings(input: PostgresSettingsInput): PostgresSettings {
  const env = input.env ?? {};
  const source = urlSource(input);
  if (!source && !nonEmpty(env['PGHOST']) && !nonEmpty(env['PGDATABASE']))
    throw new PostgresConfigError(
      "storage.backend is 'postgres' but no server is configured: set one with agentm config set postgres.url " +
        `postgres://user@host:5432/database (or ${ENV_PG_URL}, or PGHOST and PGDATABASE); keep the password in ~/.pgpass or PGPASSWORD.`,
    );
  const parsed = source ? parseUrl(source.url, source.from) : undefined;
  const param = (name: string) => nonEmpty(parsed?.searchParams.get(name) ?? undefined);
  const host = nonEmpty(parsed?.hostname ? decodeURIComponent(parsed.hostname) : undefined) ?? param('host');
  const portText = nonEmpty(parsed?.port) ?? param('port') ?? nonEmpty(env['PGPORT']) ?? '5432';
  const port = Number(portText);
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new PostgresConfigError(`the postgres port ${JSON.stringify(portText)} is not a port number (1-65535)`);
  const user =
    nonEmpty(parsed?.username ? decodeURIComponent(parsed.username) : undefined) ??
    param('user') ??
    nonEmpty(env['PGUSER']) ??
    nonEmpty(env['USER']) ??
    userInfo().username;
  const path = parsed ? decodeURIComponent(parsed.pathname.replace(/^\//, '')) : '';
  const database = nonEmpty(path) ?? param('dbname') ?? nonEmpty(env['PGDATABASE']) ?? user;
  const schema = nonEmpty(input.schema) ?? nonEmpty(input.config?.[KEY_PG_SCHEMA]) ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema))
    throw new PostgresConfigError(
      `the postgres schema name ${JSON.stringify(schema)} is not usable: use lower-case letters, digits and _ (at most 56, ` +
        `not starting with a digit), e.g. agentm config set ${KEY_PG_SCHEMA} team_memory`,
    );
  const sslmode = param('sslmode') ?? nonEmpty(env['PGSSLMODE']) ?? 'disable';
  const ssl = SSL_MODES[sslmode];
  if (ssl === undefined)
    throw new PostgresConfigError(
      `sslmode=${sslmode} is not one AgentM knows: use disable, require, verify-ca or verify-full`,
    );
  const resolvedHost = host ?? nonEmpty(env['PGHOST']) ?? 'localhost';
  const hostForId = resolvedHost.includes(':') && !resolvedHost.startsWith('[') ? `[${resolvedHost}]` : resolvedHost;
  const hostPart = resolvedHost.startsWith('/') ? `localhost` : hostForId;
  return {
    storeId: `postgres://${encodeURIComponent(user)}@${hostPart}:${port}/${encodeURIComponent(database)}?schema=${schema}`,
    host: resolvedHost,
    port,
    user,
    database,
    schema,
    leaseTtlMs: leaseMs(input),
    ssl,
    connectTimeoutMs: Number(param('connect_timeout') ?? 10) * 1000 || 10_000,
    env,
    home: input.home,
  };
}

function parseUrl(text: string, from: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text may hold a password: say where it came from, never what it is.
    throw new PostgresConfigError(
      `${from} is not a URL: write it as postgres://user@host:5432/database (no password; it goes in ~/.pgpass or PGPASSWORD)`,
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new PostgresConfigError(`${from} must start with postgres:// or postgresql://, not ${url.protocol}//`);
  if (url.password !== '' || url.searchParams.has('password'))
    throw new PostgresConfigError(
      `${from} contains a password: remove it from the URL (postgres://${url.username ? `${url.username}@` : ''}${url.host}${url.pathname}) ` +
        'and put it in ~/.pgpass (host:port:database:user:password, mode 0600) or the PGPASSWORD environment variable. ' +
        'AgentM never keeps a password in its config, where it could be synced or shown.',
    );
  for (const name of url.searchParams.keys())
    if (!KNOWN_PARAMS.has(name))
      throw new PostgresConfigError(
        `${from} has the parameter ${JSON.stringify(name)}, which AgentM does not use: the ones it reads are ${[...KNOWN_PARAMS].join(', ')}`,
      );
  return url;
}

function leaseMs(input: PostgresSettingsInput): number {
  const raw = input.leaseMs ?? input.config?.[KEY_PG_LEASE_MS];
  if (raw === undefined) return DEFAULT_LEASE_MS;
  const value = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new PostgresConfigError(
      `${KEY_PG_LEASE_MS} must be a positive number of milliseconds (how long a claimed step is held without a heartbeat), not ${JSON.stringify(raw)}`,
    );
  return value;
}
