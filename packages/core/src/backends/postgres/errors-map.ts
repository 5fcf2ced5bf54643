import { AgentMError } from '../../seam/errors.js';
import { redactSecrets } from '../../text/redact.js';
import {
  PostgresAuthError,
  PostgresDatabaseMissingError,
  PostgresQueryError,
  PostgresStoreError,
  PostgresTransactionConflictError,
  PostgresUnreachableError,
} from './errors.js';
import type { PostgresSettings } from './settings.js';

/** Socket-level failures (Node's codes): the server is not there, or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
]);

/**
 * SQLSTATEs of a server that is restarting or lost the connection: class 08 (connection exception),
 * 57P01 admin shutdown (`pg_ctl restart`), 57P02 crash shutdown, 57P03 cannot connect now (starting up).
 */
const TRANSIENT_STATES = /^(08...|57P0[123])$/;

/** The driver's own messages for a connection that ended or never came up. */
const TRANSIENT_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : '';
}

/** Whether `error` means the connection failed (worth reconnecting and retrying), not that the query was wrong. */
export function isTransient(error: unknown): boolean {
  if (error instanceof PostgresUnreachableError) return true;
  if (error instanceof PostgresStoreError) return false;
  const code = codeOf(error);
  return (
    NETWORK_CODES.has(code) || TRANSIENT_STATES.test(code) || TRANSIENT_MESSAGES.test(String((error as Error)?.message))
  );
}

/**
 * The typed error for what the driver threw, naming the store and the fix. Never passes a password on:
 * the driver's text goes through the secret redactor (with the password the settings would send) and
 * is only quoted for errors that are not about credentials.
 */
export function mapPgError(error: unknown, settings: PostgresSettings, what: string): Error {
  // Ours already (a lost compare-and-swap, an absent file, a typed postgres error): passed on as is.
  if (error instanceof AgentMError) return error;
  const code = codeOf(error);
  const message = redactSecrets(String((error as Error)?.message ?? error), knownSecrets(settings));
  if (code === '28P01' || code === '28000' || /password must be a string|SASL|password authentication/i.test(message))
    return new PostgresAuthError(settings.storeId, settings.user);
  if (code === '3D000') return new PostgresDatabaseMissingError(settings.storeId, settings.database);
  if (code === '40P01' || code === '40001')
    return new PostgresTransactionConflictError(
      settings.storeId,
      code === '40P01' ? 'a deadlock' : 'a serialization failure',
    );
  if (isTransient(error)) return new PostgresUnreachableError(settings.storeId, message || code, error);
  if (code === '42501')
    return new PostgresQueryError(
      settings.storeId,
      what,
      `${message}. The user '${settings.user}' needs to create and use the schema '${settings.schema}': ask the database owner to run ` +
        `CREATE SCHEMA ${settings.schema} AUTHORIZATION ${settings.user}`,
    );
  return new PostgresQueryError(settings.storeId, what, message, undefined);
}

function knownSecrets(settings: PostgresSettings): string[] {
  const password = settings.env['PGPASSWORD'];
  return password ? [password] : [];
}
