import Module, { createRequire } from 'node:module';

/** The parts of Dataview's library (`obsidian-dataview`, its own parsers) the tests read step fields with. */
export interface Dataview {
  /** Dataview's expression language; `inlineField` is how it types an inline field's value. */
  readonly EXPRESSION: { readonly inlineField: Parser<unknown> };
  /** Dataview's query language (DQL). */
  readonly QUERY_LANGUAGE: { readonly query: Parser<unknown> };
}

interface Parser<T> {
  parse(text: string): { status: true; value: T } | { status: false; expected: string[] };
}

type Resolve = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };

/**
 * Loads Dataview's published library. It `require`s `obsidian` for its side effects only (the parsers use
 * nothing of it), and the `obsidian` package ships types, no code: that one request is answered by an
 * empty module for the duration of the load.
 */
export function loadDataview(): Dataview {
  const require = createRequire(import.meta.url);
  const empty = require.resolve('./empty-module.cjs');
  const resolve = loader._resolveFilename;
  loader._resolveFilename = (request, ...rest) => (request === 'obsidian' ? empty : resolve(request, ...rest));
  try {
    return require('obsidian-dataview') as Dataview;
  } finally {
    loader._resolveFilename = resolve;
  }
}
