/**
 * Groups items by similarity, pure and deterministic: items are taken in the given order (oldest
 * first); each joins the cluster whose first member (its leader) it is most similar to, when that
 * similarity reaches the threshold, else it leads a new cluster.
 */
export function clusterBySimilarity<T>(
  items: readonly T[],
  similarity: (a: T, b: T) => number,
  threshold: number,
): T[][] {
  const clusters: T[][] = [];
  for (const item of items) {
    let best = -1;
    let bestSim = -Infinity;
    clusters.forEach((cluster, i) => {
      const s = similarity(item, cluster[0]!);
      if (s > bestSim) {
        best = i;
        bestSim = s;
      }
    });
    if (best >= 0 && bestSim >= threshold) clusters[best]!.push(item);
    else clusters.push([item]);
  }
  return clusters;
}

/** The member most similar, on average, to the others (the first on ties). */
export function medoid<T>(cluster: readonly T[], similarity: (a: T, b: T) => number): T {
  let best = cluster[0] as T;
  let bestScore = -Infinity;
  for (const a of cluster) {
    let sum = 0;
    for (const b of cluster) if (a !== b) sum += similarity(a, b);
    if (sum > bestScore) {
      best = a;
      bestScore = sum;
    }
  }
  return best;
}
