/**
 * Filters tool names to a role's allow-list (memQL `ScopeToolNames`): no scope (or only blank entries)
 * → unchanged; otherwise the names whose trimmed value is allowed, in order, duplicates and original
 * spelling kept.
 */
export function scopeToolNames(names: readonly string[], scope: readonly string[] | undefined): string[] {
  if (!scope || scope.length === 0) return [...names];
  const allowed = new Set(scope.map((s) => s.trim()).filter(Boolean));
  if (allowed.size === 0) return [...names];
  return names.filter((n) => allowed.has(n.trim()));
}
