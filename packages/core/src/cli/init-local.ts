import type { HostEnv } from '../config/host.js';
import { bestLocalServer, detectLocalServers, type LocalServer } from '../providers/local-detect.js';
import { CliError, EXIT_USAGE } from './errors.js';
import type { EndpointAnswer } from './init-setup.js';

/**
 * The local embedding servers `agentm init` may offer, and the endpoint `--embed-local` chose. Nothing
 * is looked for with `--no-detect` (or `AGENTM_DETECT_LOCAL=0`), nor when an endpoint was given. A
 * `--embed-local` that finds nothing to use is a usage error naming what was found and how to fix it.
 */
export async function localEmbeddings(
  host: HostEnv,
  flags: { readonly embedLocal?: boolean; readonly detect?: boolean },
  given: EndpointAnswer | undefined,
): Promise<{ servers: LocalServer[]; chosen?: EndpointAnswer }> {
  if (flags.embedLocal && given !== undefined)
    throw new CliError('init: --embed-local and --embed-url/--embed-model: give one; nothing was written', EXIT_USAGE);
  if (flags.detect === false && !flags.embedLocal) return { servers: [] };
  if (given !== undefined) return { servers: [] };
  const servers = await detectLocalServers(host.env);
  if (!flags.embedLocal) return { servers };
  const best = bestLocalServer(servers);
  if (best === undefined)
    throw new CliError(`init: --embed-local: ${nothingToUse(servers)}; nothing was written`, EXIT_USAGE);
  return { servers, chosen: { url: best.baseUrl, model: best.offer! } };
}

/** Why no local embedding model can be used, and what to do. */
function nothingToUse(servers: readonly LocalServer[]): string {
  const bare = servers[0];
  if (bare !== undefined)
    return `${bare.name} runs at ${bare.url} but has no embedding model: ${bare.getOne}, then run it again`;
  return (
    'no Ollama (127.0.0.1:11434) or LM Studio (127.0.0.1:1234) answered: start one ' +
    '(Ollama: ollama serve, then ollama pull nomic-embed-text), or give --embed-url and --embed-model'
  );
}

/** What to tell a `--yes` run that did not ask for a local server that is there. */
export function localHint(servers: readonly LocalServer[]): string | undefined {
  const best = bestLocalServer(servers);
  if (best !== undefined)
    return `found ${best.name} at ${best.url} with ${best.offer}: add --embed-local to use it for semantic recall (computed on this machine)`;
  const bare = servers[0];
  return bare !== undefined
    ? `${bare.name} runs at ${bare.url} without an embedding model: ${bare.getOne}, then agentm init --embed-local`
    : undefined;
}
