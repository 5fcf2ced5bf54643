import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { tcpRelay } from './relay.js';

/**
 * Network namespaces standing in for machines: each "machine" gets a namespace of its own, joined to this
 * one by a veth pair (10.213.<n>.1 here, .2 there), and reaches the database through a TCP relay on its
 * link's address (the server itself listens on 127.0.0.1 only). Needs root and CAP_NET_ADMIN (`ip netns`);
 * where the machine does not allow it, `machines` says why and the "machines" are plain processes.
 */
export interface Machine {
  /** The command prefix that runs a program on this machine (`ip netns exec <ns>`), or none. */
  readonly prefix: readonly string[];
  /** Where this machine reaches the database (host and port). */
  readonly dbHost: string;
  readonly dbPort: number;
  /** Connections this machine opened to the database through its link (0 without namespaces). */
  readonly connections: number;
  /** Cuts this machine off the network (its relay drops every connection and refuses new ones). */
  cut(): void;
}

const made: string[] = [];
afterAll(() => {
  for (const ns of made.splice(0)) spawnSync('ip', ['netns', 'del', ns]);
});

function ip(...args: string[]): void {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')} failed: ${r.error?.message ?? ''}${r.stderr}`);
}

/** Why namespaces cannot be used here, or undefined when they can. */
export function netnsUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root (ip netns needs root and CAP_NET_ADMIN)';
  const probe = `agentm-probe-${randomBytes(3).toString('hex')}`;
  const r = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return `ip netns add failed: ${r.error?.message ?? r.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return undefined;
}

/**
 * `count` machines reaching the database at `db`. With namespaces: one each, with its link and relay;
 * without: this machine's network, `reason` says why (the caller prints it).
 */
export async function machines(
  count: number,
  db: { host: string; port: number },
): Promise<{ machines: Machine[]; isolated: boolean; reason?: string }> {
  const reason = netnsUnavailable();
  if (reason !== undefined) {
    const plain = { prefix: [], dbHost: db.host, dbPort: db.port, connections: 0, cut: () => undefined };
    return { machines: Array.from({ length: count }, () => plain), isolated: false, reason };
  }
  const out: Machine[] = [];
  for (let i = 0; i < count; i++) {
    const tag = randomBytes(3).toString('hex');
    const ns = `agentm-m${i}-${tag}`;
    // A /30 of 10.213.0.0/16 picked at random (tests of other files may be making links at the same time).
    const [a, b] = randomBytes(2);
    const base = `10.213.${a}.${(b! & 0x3f) * 4}`.split('.');
    const hostSide = [...base.slice(0, 3), Number(base[3]) + 1].join('.');
    const nsSide = [...base.slice(0, 3), Number(base[3]) + 2].join('.');
    ip('netns', 'add', ns);
    made.push(ns);
    ip('link', 'add', `vh${tag}`, 'type', 'veth', 'peer', 'name', `vn${tag}`);
    ip('link', 'set', `vn${tag}`, 'netns', ns);
    ip('addr', 'add', `${hostSide}/30`, 'dev', `vh${tag}`);
    ip('link', 'set', `vh${tag}`, 'up');
    ip('netns', 'exec', ns, 'ip', 'addr', 'add', `${nsSide}/30`, 'dev', `vn${tag}`);
    ip('netns', 'exec', ns, 'ip', 'link', 'set', `vn${tag}`, 'up');
    ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
    const relay = await tcpRelay(hostSide, db);
    out.push({
      prefix: ['ip', 'netns', 'exec', ns],
      dbHost: hostSide,
      dbPort: relay.port,
      get connections() {
        return relay.opened;
      },
      cut: () => relay.cut(),
    });
  }
  return { machines: out, isolated: true };
}
