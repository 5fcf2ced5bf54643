/**
 * The name an agent's writes are signed with (`[agent:: …]` on a step it starts, `actor` of its progress
 * entries). It comes from outside (an MCP client's self-reported name), so it is reduced to a plain
 * token: lower-case letters, digits, `.`, `_` and `-`, at most 40 characters. A token cannot close an
 * inline field, start another, or look like a reconciler's `pid@host` claim (no `@`), so the reconciler
 * never mistakes an agent's step for one of its own dead claims.
 */
export function agentActor(name: string | undefined, fallback = 'agent'): string {
  const token = (name ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 40)
    .replace(/[-.]+$/, '');
  return token === '' ? fallback : token;
}
