/**
 * A crude English suffix stripper for the bench's stand-in embedder (the bench does not reach into
 * core's analyzer): enough to put "pets" with "pet" and "configured" with "configure".
 */
export function stem(word) {
  const w = word.toLowerCase();
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ied', 'es', 'ed', 's'])
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) return w.slice(0, -suffix.length);
  return w;
}
