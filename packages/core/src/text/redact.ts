/**
 * The one place that decides what text must never reach disk or a log: secrets (API keys, tokens) and,
 * for `failure-incident` notes, personal data. Pure string functions, no I/O, imported by every layer.
 *
 * Two uses, one set of patterns:
 * - `redactSecrets` runs over everything AgentM writes to a progress file, trace or error message: it
 *   removes the secrets the caller knows (configured keys) and anything shaped like a key.
 * - `scrubIncident` runs over a `failure-incident` body before it is saved (agentm does the same): it
 *   also replaces e-mail addresses, home-directory paths and US phone numbers.
 * Every replacement is `[REDACTED-<KIND>]`, agentm's placeholder.
 */

export type RedactionKind = 'API-KEY' | 'EMAIL' | 'PATH' | 'PHONE';

export function placeholder(kind: RedactionKind): string {
  return `[REDACTED-${kind}]`;
}

/**
 * Key-shaped strings. Each is anchored so that it does not start inside a longer word: OpenAI-style
 * `sk-` keys (agentm: `sk-` + 20 or more alphanumerics; `sk-proj-…` and `sk-ant-…` keys have dashes and
 * underscores, so those are accepted too), GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`,
 * `github_pat_`), GitLab personal tokens (`glpat-`), AWS access key ids (`AKIA`/`ASIA` + 16), Slack
 * tokens (`xox?-`), and the value of an HTTP bearer authorization.
 */
const KEY_SHAPES: readonly RegExp[] = [
  /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g,
  /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{20,}/g,
  /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{20,}/g,
  /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g,
  /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])/g,
  /(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,}/g,
];
/** `Bearer <token>`: the token goes, the word stays (so a reader still sees what it was). */
const BEARER = /\b(Bearer\s+)(?!\[REDACTED-)[A-Za-z0-9._~+/=-]{8,}/gi;
/** The password of a URL (`postgres://user:secret@host/db`): the password goes, the URL stays readable. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@[\]]*:)(?!\[REDACTED-)([^\s@/?#]+)(@)/gi;

/** Addresses as people write them; the domain needs a dot and a 2+ letter top level. */
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g;
/** Home-directory paths (they name a person): `/Users/<name>/…`, `/home/<name>/…`, `C:\Users\<name>\…`, to the end of the path. */
const PATH_UNIX = /(?<![A-Za-z0-9_.-])\/(?:Users|home)\/[^\s/'"`<>()[\]{}]+(?:\/[^\s'"`<>()[\]{}]*)*/g;
const PATH_WINDOWS = /(?<![A-Za-z0-9_])[A-Za-z]:\\Users\\[^\s\\'"`<>()[\]{}]+(?:\\[^\s'"`<>()[\]{}]*)*/gi;
/** US phone numbers: `(555) 123-4567`, `555-123-4567`, `555.123.4567`, `555 123 4567`, with an optional `+1`/`1` prefix. */
const PHONE = /(?<![\w+.-])(?:\+?1[-. ]?)?(?:\(\d{3}\)[-. ]?|\d{3}[-. ])\d{3}[-. ]\d{4}(?![\w-])/g;

/** A known secret shorter than this is not searched for (a one-letter "key" would shred every text). */
export const MIN_SECRET_LENGTH = 6;

function replaceKnown(text: string, known: readonly string[]): string {
  let out = text;
  const secrets = [...new Set(known.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  for (const secret of secrets) out = out.split(secret).join(placeholder('API-KEY'));
  return out;
}

function replaceKeyShapes(text: string): string {
  let out = text;
  for (const shape of KEY_SHAPES) out = out.replace(shape, placeholder('API-KEY'));
  return redactUrlPasswords(out).replace(BEARER, (_m, word: string) => `${word}${placeholder('API-KEY')}`);
}

/** `text` with the password of every URL in it replaced (`postgres://user:[REDACTED-API-KEY]@host/db`). */
export function redactUrlPasswords(text: string): string {
  return text.replace(
    URL_PASSWORD,
    (_m, head: string, _password: string, at: string) => `${head}${placeholder('API-KEY')}${at}`,
  );
}

/**
 * `text` without any of the `known` secrets (exact values, e.g. the configured API keys) and without
 * key-shaped strings; each becomes `[REDACTED-API-KEY]`. Everything else is kept byte for byte.
 */
export function redactSecrets(text: string, known: readonly string[] = []): string {
  return replaceKeyShapes(replaceKnown(text, known));
}

/** Whether `text` still contains a known secret or a key-shaped string. */
export function containsSecret(text: string, known: readonly string[] = []): boolean {
  return redactSecrets(text, known) !== text;
}

export interface ScrubResult {
  /** The scrubbed text, when scrubbing succeeded. */
  readonly text?: string;
  /** How many of each kind were replaced. */
  readonly counts: Readonly<Record<RedactionKind, number>>;
  /** Why the text cannot be scrubbed (the caller must refuse the write). */
  readonly refused?: string;
}

const SCRUB_PASSES = 4;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function scrubOnce(text: string, counts: Record<RedactionKind, number>): string {
  const count = (kind: RedactionKind) => () => {
    counts[kind]++;
    return placeholder(kind);
  };
  let out = text;
  for (const shape of KEY_SHAPES) out = out.replace(shape, count('API-KEY'));
  out = out.replace(BEARER, (_m, word: string) => {
    counts['API-KEY']++;
    return `${word}${placeholder('API-KEY')}`;
  });
  out = out.replace(URL_PASSWORD, (_m, head: string, _password: string, at: string) => {
    counts['API-KEY']++;
    return `${head}${placeholder('API-KEY')}${at}`;
  });
  out = out.replace(PATH_WINDOWS, count('PATH'));
  out = out.replace(PATH_UNIX, count('PATH'));
  out = out.replace(EMAIL, count('EMAIL'));
  out = out.replace(PHONE, count('PHONE'));
  return out;
}

/**
 * Scrubs a `failure-incident` body (agentm's categories): API keys, home-directory paths, e-mail
 * addresses and US phone numbers become `[REDACTED-<KIND>]`. Replacing can join pieces into a new match,
 * so it repeats until nothing changes; text that is not well-formed Unicode (a lone surrogate hides
 * what a pattern would see), or that still changes after several passes, cannot be scrubbed and comes
 * back `refused` — the caller must not write it.
 */
export function scrubIncident(text: string): ScrubResult {
  const counts: Record<RedactionKind, number> = { 'API-KEY': 0, EMAIL: 0, PATH: 0, PHONE: 0 };
  if (LONE_SURROGATE.test(text)) return { counts, refused: 'the text is not well-formed Unicode (a lone surrogate)' };
  let current = text;
  for (let pass = 0; pass < SCRUB_PASSES; pass++) {
    const next = scrubOnce(current, counts);
    if (next === current) return { text: current, counts };
    current = next;
  }
  return { counts, refused: `personal data still matched after ${SCRUB_PASSES} passes` };
}

/** Environment variable names that hold secrets: `*_API_KEY`, `*_TOKEN`, `*_SECRET`, passwords, credentials. */
const SECRET_NAME =
  /(?:^|_)(?:API_?KEY|APIKEY|TOKEN|SECRET|SECRET_KEY|ACCESS_KEY|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY)$/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || name === 'PGPASSWORD';
}

/** Config keys that hold secrets: `providers.chat.api_key` and any other `*.api_key`, `*.token`, `*.secret`. */
const SECRET_CONFIG_KEY = /(?:^|[._])(?:api_key|apikey|token|secret|password)$/i;

/** Whether a config key holds a secret (`providers.chat.api_key`, `*.token`, …): never shown in listings. */
export function isSecretConfigKey(key: string): boolean {
  return SECRET_CONFIG_KEY.test(key);
}

/**
 * Every secret value AgentM knows of in an environment and a config: the values of secret-named
 * variables (`AGENTM_LLM_API_KEY`, `GITHUB_TOKEN`, …) and of secret config keys (`providers.*.api_key`).
 * What `redactSecrets` is given.
 */
export function secretValues(
  env: Readonly<Record<string, string | undefined>>,
  config: Readonly<Record<string, unknown>> = {},
): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && isSecretName(name) && value.trim() !== '') out.add(value.trim());
  for (const [key, value] of Object.entries(config))
    if (typeof value === 'string' && SECRET_CONFIG_KEY.test(key) && value.trim() !== '') out.add(value.trim());
  return [...out];
}
