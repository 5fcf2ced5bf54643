import type { IndexDocument } from '../documents/document.js';
import { Column, StringRows, Symbols } from './columns.js';

/** A document as the index keeps it: everything but the full text, which stays in the Markdown. */
export interface StoredDoc extends Omit<IndexDocument, 'text'> {
  /** The first characters of the text, whitespace collapsed: snippets and previews. */
  readonly preview: string;
  readonly slot: number;
}

/** Per-slot flags. */
export const ALWAYS_LOAD = 1;
/** Live, of a recallable status, and not superseded by a live note: recall may return it. */
export const RECALLABLE = 2;
/** The document names a note it supersedes (its record holds the path). */
export const SUPERSEDES = 4;
/**
 * The id is not its file's key (or `<key>#…`, an episode's): a custom mapper's. Only then can two
 * files claim one id, so only then does adding a document look its id up.
 */
export const FOREIGN_ID = 8;

/** Whether a document's id is derived from its file's key (a note's, or an episode's `<key>#…`). */
export function ownId(doc: Pick<StoredDoc, 'id' | 'locator'>): boolean {
  return doc.id === doc.locator || doc.id.startsWith(`${doc.locator}#`);
}

/** The fields of a slot that are neither columns nor the BM25 length: the record, decoded on demand. */
type RecordFields = [
  /** 0: the locator is the id; 1: the id is `<locator>#…` (an episode); else the locator. */
  locator: string | 0 | 1,
  title: string,
  preview: string,
  tags: readonly string[],
  fingerprint: string,
  derivedFrom: readonly string[],
  supersedes: string | 0,
];

/**
 * A document's record: its id, a NUL (which no locator key holds), then the other string fields as
 * JSON. The id is read without parsing the rest.
 */
export function encodeRecord(
  doc: Pick<StoredDoc, 'id' | 'locator' | 'title' | 'tags' | 'fingerprint' | 'derivedFrom' | 'supersedes'>,
  preview: string,
): string {
  const locator = doc.locator === doc.id ? 0 : doc.id.startsWith(`${doc.locator}#`) ? 1 : doc.locator;
  const fields: RecordFields = [
    locator,
    doc.title,
    preview,
    doc.tags,
    doc.fingerprint,
    doc.derivedFrom,
    doc.supersedes ?? 0,
  ];
  return `${doc.id}\0${JSON.stringify(fields)}`;
}

/**
 * The documents' columns by slot (owner, kind, status, dates, confidence, flags) and their records.
 * Scoring 100 000 candidates reads columns only; a StoredDoc object is made for the few returned.
 */
export class DocStore {
  readonly owners: Symbols;
  readonly kinds: Symbols;
  readonly statuses: Symbols;
  readonly owner: Column<Int32Array>;
  readonly kind: Column<Int32Array>;
  readonly status: Column<Int32Array>;
  readonly flags: Column<Uint8Array>;
  readonly created: Column<Float64Array>;
  readonly updated: Column<Float64Array>;
  /** NaN when the document is not a belief. */
  readonly confidence: Column<Float64Array>;
  readonly records: StringRows;

  constructor(frozen?: FrozenDocs) {
    // Owner id 0 is always the global owner `""`.
    this.owners = new Symbols(frozen?.owners ?? ['']);
    this.kinds = new Symbols(frozen?.kinds);
    this.statuses = new Symbols(frozen?.statuses);
    this.owner = new Column(Int32Array, frozen?.owner);
    this.kind = new Column(Int32Array, frozen?.kind);
    this.status = new Column(Int32Array, frozen?.status);
    this.flags = new Column(Uint8Array, frozen?.flags);
    this.created = new Column(Float64Array, frozen?.created);
    this.updated = new Column(Float64Array, frozen?.updated);
    this.confidence = new Column(Float64Array, frozen?.confidence);
    this.records = new StringRows(frozen?.records);
  }

  /**
   * Writes a document's fields at `slot` (a fresh slot); `confidence` NaN when none. The RECALLABLE
   * flag is left for the state to settle.
   */
  put(
    slot: number,
    owner: string,
    kind: string,
    status: string,
    createdMs: number,
    updatedMs: number,
    confidence: number,
    alwaysLoad: boolean,
    record: string,
    supersedes: boolean,
    foreign = false,
  ): void {
    this.owner.set(slot, this.owners.intern(owner));
    this.kind.set(slot, this.kinds.intern(kind));
    this.status.set(slot, this.statuses.intern(status));
    this.created.set(slot, createdMs);
    this.updated.set(slot, updatedMs);
    this.confidence.set(slot, confidence);
    this.flags.set(slot, (alwaysLoad ? ALWAYS_LOAD : 0) | (supersedes ? SUPERSEDES : 0) | (foreign ? FOREIGN_ID : 0));
    this.records.set(slot, record);
  }

  /** The id of the document at `slot`. */
  id(slot: number): string {
    return this.records.head(slot) ?? '';
  }

  /** The document at `slot`, decoded. */
  doc(slot: number): StoredDoc {
    const record = this.records.get(slot) ?? '\0[0,"","",[],"",[],0]';
    const nul = record.indexOf('\0');
    const id = record.slice(0, nul);
    const [locator, title, preview, tags, fingerprint, derivedFrom, supersedes] = JSON.parse(
      record.slice(nul + 1),
    ) as RecordFields;
    const confidence = this.confidence.at(slot);
    return {
      id,
      locator: locator === 0 ? id : locator === 1 ? id.slice(0, id.lastIndexOf('#')) : locator,
      owner: this.owners.list[this.owner.at(slot)]!,
      kind: this.kinds.list[this.kind.at(slot)]!,
      status: this.statuses.list[this.status.at(slot)]!,
      tags,
      alwaysLoad: (this.flags.at(slot) & ALWAYS_LOAD) !== 0,
      createdMs: this.created.at(slot),
      updatedMs: this.updated.at(slot),
      title,
      preview,
      fingerprint,
      derivedFrom,
      ...(Number.isNaN(confidence) ? {} : { confidence }),
      ...(supersedes === 0 ? {} : { supersedes }),
      slot,
    };
  }
}

/** What a snapshot restores a DocStore from. */
export interface FrozenDocs {
  readonly owners: readonly string[];
  readonly kinds: readonly string[];
  readonly statuses: readonly string[];
  readonly owner: Int32Array;
  readonly kind: Int32Array;
  readonly status: Int32Array;
  readonly flags: Uint8Array;
  readonly created: Float64Array;
  readonly updated: Float64Array;
  readonly confidence: Float64Array;
  readonly records: { blob: Uint8Array; offsets: Uint32Array };
}
