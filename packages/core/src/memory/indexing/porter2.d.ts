/** wink-porter2-stemmer (CommonJS, untyped): Porter's English stemmer, version 2 (Snowball English). */
declare module 'wink-porter2-stemmer' {
  /** The stem of a lower-case English word. */
  function stem(word: string): string;
  export default stem;
}
