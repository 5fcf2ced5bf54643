/**
 * Rank metrics at a cut-off (10) over graded judgments: MRR (the first result with the query's top
 * grade), nDCG (gain 2^grade − 1, discount log2(rank + 1), normalized by the ideal order of the
 * judgments) and Recall (judged items with grade > 0 found, over all of them). A result is a key: a
 * file, or `<progress file>@<epoch ms>` for one entry of a harness log. An engine that returns whole
 * files (FTS5) is credited for a judged entry when it returns the file holding it.
 */
export const CUTOFF = 10;

/** The judged keys a result key stands for: itself, or the judged entries of the file it names. */
function judgedBy(query, key) {
  if (query.judgments.has(key)) return [key];
  const prefix = `${key}@`;
  return [...query.judgments.keys()].filter((k) => k.startsWith(prefix));
}

/** Metrics of one ranked list of result keys for one query. */
export function evaluate(query, keys) {
  const grades = [...query.judgments.values()];
  const top = Math.max(...grades);
  const ideal = grades
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, CUTOFF)
    .reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  const credited = new Set();
  let dcg = 0;
  let mrr = 0;
  let forbidden = false;
  keys.slice(0, CUTOFF).forEach((key, i) => {
    if (query.forbidden.has(key)) forbidden = true;
    const fresh = judgedBy(query, key).filter((k) => !credited.has(k));
    if (fresh.length === 0) return;
    const grade = Math.max(...fresh.map((k) => query.judgments.get(k)));
    for (const k of fresh) credited.add(k);
    dcg += (2 ** grade - 1) / Math.log2(i + 2);
    if (mrr === 0 && grade === top) mrr = 1 / (i + 1);
  });
  const relevant = [...query.judgments].filter(([, g]) => g > 0);
  const found = relevant.filter(([k]) => credited.has(k)).length;
  return {
    mrr,
    ndcg: ideal > 0 ? dcg / ideal : 0,
    recall: relevant.length > 0 ? found / relevant.length : 0,
    forbidden,
  };
}

/**
 * Mean metrics per class and overall: `{ [cls | 'overall']: { mrr, ndcg, recall, forbidden, n } }`, each
 * also holding its queries' nDCGs (`ndcgs`, not enumerable).
 */
export function summarize(queries, results) {
  const groups = new Map([['overall', []]]);
  queries.forEach((q, i) => {
    const m = evaluate(q, results[i]);
    if (!groups.has(q.cls)) groups.set(q.cls, []);
    groups.get(q.cls).push(m);
    groups.get('overall').push(m);
  });
  const out = {};
  for (const [name, list] of groups) {
    const mean = (f) => list.reduce((s, m) => s + f(m), 0) / list.length;
    out[name] = {
      mrr: mean((m) => m.mrr),
      ndcg: mean((m) => m.ndcg),
      recall: mean((m) => m.recall),
      forbidden: list.filter((m) => m.forbidden).length,
      n: list.length,
    };
    // Each query's nDCG, in the queries' order, for paired intervals; not part of the printed JSON record.
    Object.defineProperty(out[name], 'ndcgs', { value: list.map((m) => m.ndcg), enumerable: false });
  }
  return out;
}

/**
 * The hook-injection figures over prompts (answerable ones carry judgments, unanswerable ones none) and
 * what was injected for each (`{ keys, titles }`): the share of unanswerable prompts that get nothing,
 * of answerable ones that get a relevant memory (and of those whose top 5 before the floor had one:
 * "still"), the share of injected memories that are relevant, and the injections listing a memory or a
 * title twice.
 */
export function injectionFigures(prompts, injected, unfloored) {
  let unanswerable = 0;
  let silent = 0;
  let answerable = 0;
  let hit = 0;
  let reachable = 0;
  let kept = 0;
  let total = 0;
  let relevant = 0;
  let duplicates = 0;
  prompts.forEach((p, i) => {
    const { keys, titles } = injected[i];
    const good = (list) => list.some((k) => judgedBy(p, k).some((j) => (p.judgments.get(j) ?? 0) > 0));
    total += keys.length;
    relevant += keys.filter((k) => judgedBy(p, k).some((j) => (p.judgments.get(j) ?? 0) > 0)).length;
    if (new Set(keys).size < keys.length || new Set(titles.map((t) => t.toLowerCase().trim())).size < titles.length)
      duplicates++;
    if (p.judgments.size === 0) {
      unanswerable++;
      if (keys.length === 0) silent++;
    } else {
      answerable++;
      const found = good(keys);
      if (found) hit++;
      if (good(unfloored[i].keys)) {
        reachable++;
        if (found) kept++;
      }
    }
  });
  return {
    unanswerable,
    silent: unanswerable ? silent / unanswerable : 0,
    answerable,
    hit: answerable ? hit / answerable : 0,
    reachable,
    still: reachable ? kept / reachable : 0,
    precision: total ? relevant / total : 0,
    duplicates,
  };
}
