/**
 * A snapshot's sections read from its file as they are needed, a page at a time, instead of the whole
 * file on open. Why: at 100 000 notes the snapshot is ~140 MB, and a new process (a prompt hook, a
 * terminal `agentm recall`) that read it whole spent most of its answer faulting in fresh memory for
 * bytes it never looked at — a query reads a few posting lists, a few records, a few table probes.
 *
 * The sections are views of one array buffer the size of the file's sections, that the operating system
 * backs with memory only where it is written; a page is read into it with one positional read the first
 * time any of its bytes is asked for. Code that reads a frozen array calls `pageIn` (a range) or
 * `pageInAll` before looking; arrays that are not paged (built in memory, or already whole) make both
 * calls no-ops. The file stays open until every page is in (then it is closed) or the arrays are
 * collected; the snapshot is only ever replaced by a rename, never written in place, so the open file
 * keeps the bytes this process verified whatever another process writes meanwhile.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * What unread pages hold: zero, or for the test suite (`AGENTM_INDEX_UNREAD_FILL=165`, set by the vitest
 * config, inherited by the processes tests start) a byte that makes any read which forgot `pageIn`
 * produce garbage a test notices, instead of zeros that can pass for an empty posting list. With a fill,
 * pages are small and no section is read whole on open, so that a test's small index pages too.
 */
let poison = Number(process.env['AGENTM_INDEX_UNREAD_FILL'] ?? 0) & 0xff;

/** Bytes read per page: a posting list of a rare word, a table probe, a record — each about one page. */
let PAGE_BYTES = poison === 0 ? 16 * 1024 : 64;

/** Sections this small are read whole when the snapshot is opened. */
let EAGER_BYTES = poison === 0 ? 2 * PAGE_BYTES : 0;

/** The open snapshot file its paged sections read from; closed once every section is whole. */
export class SnapshotFile {
  #fd: number | undefined;
  readonly #unread = new Set<PagedSection>();
  #region: { readonly from: number; readonly bytes: Uint8Array; readonly section: PagedSection } | undefined;

  /**
   * `uncounted`: for a short-lived answer (a hook, `agentm recall`), the region every section is a view of
   * is a SharedArrayBuffer, whose memory V8 does not count against the isolate. V8 counts an ordinary
   * buffer's whole length as memory in use from the moment it is allocated, while the operating system
   * backs only the pages a query reads: a 14 MB region at 10 000 notes, of which an answer reads a few
   * hundred kilobytes, made V8 run a full mark-compact (~7 ms) in a process holding 6 MB of objects. A
   * process that lives on (the MCP server, the editor) keeps the counted kind: a snapshot it read whole
   * and then replaced is garbage V8 must be pressed to collect.
   */
  constructor(
    readonly path: string,
    private readonly uncounted = false,
  ) {
    this.#fd = openSync(path, 'r');
    closer.register(this, this.#fd, this);
  }

  get size(): number {
    return fstatSync(this.#descriptor()).size;
  }

  /** Reads `length` bytes at `position` into `into` at `offset`; throws when the file is shorter. */
  read(into: Uint8Array, offset: number, length: number, position: number): void {
    const fd = this.#descriptor();
    let done = 0;
    while (done < length) {
      const n = readSync(fd, into, offset + done, length - done, position + done);
      if (n === 0) throw new RangeError(`${this.path} ended at ${position + done} bytes, before its sections did`);
      done += n;
    }
  }

  /**
   * Where the sections lie in the file, `from..to`, before the first `section` call: they are all views
   * of one buffer that mirrors those bytes. One allocation, not one per section: V8 scavenges before
   * allocating an array buffer while the young generation's buffers hold more than a few tens of
   * megabytes, so ~30 section buffers (140 MB at 100 000 notes) cost a new process a dozen collections.
   */
  region(from: number, to: number): void {
    if (this.#region !== undefined) throw new Error(`${this.path}: the sections' region is set already`);
    const bytes = new Uint8Array(this.uncounted ? new SharedArrayBuffer(to - from) : new ArrayBuffer(to - from));
    if (poison !== 0) bytes.fill(poison);
    const section = new PagedSection(this, bytes, from);
    this.#region = { from, bytes, section };
    this.#unread.add(section);
    sections.set(bytes.buffer, section);
  }

  /**
   * A section of `length` bytes at `position` (inside the region), paged (see the module comment), or
   * read now when small. Unread pages hold zeros, or the tests' poison.
   */
  section(position: number, length: number): Uint8Array {
    const region = this.#region;
    if (region === undefined) throw new Error(`${this.path}: a section asked before the sections' region`);
    const at = position - region.from;
    if (at < 0 || at + length > region.bytes.length)
      throw new RangeError(`${this.path}: a section at ${position} (${length} bytes) is outside the region`);
    if (length <= EAGER_BYTES) region.section.ensure(at, at + length);
    return new Uint8Array(region.bytes.buffer, at, length);
  }

  /** A section became whole: close the file when it was the last. */
  sectionDone(section: PagedSection): void {
    this.#unread.delete(section);
    if (this.#unread.size === 0) this.close();
  }

  /**
   * Reads every page not read yet, and closes the file: before this process replaces the snapshot it
   * reads from (a rename over a file held open fails on Windows), or to stop depending on it.
   */
  readAll(): void {
    for (const section of [...this.#unread]) section.ensure(0, Number.POSITIVE_INFINITY);
    this.close();
  }

  close(): void {
    if (this.#fd === undefined) return;
    closer.unregister(this);
    const fd = this.#fd;
    this.#fd = undefined;
    closeSync(fd);
  }

  #descriptor(): number {
    if (this.#fd === undefined) throw new Error(`${this.path} was closed with pages still unread`);
    return this.#fd;
  }
}

class PagedSection {
  /** One byte per page: 1 once read. */
  readonly #pages: Uint8Array;
  readonly #page = PAGE_BYTES;
  #missing: number;

  constructor(
    private readonly file: SnapshotFile,
    private readonly bytes: Uint8Array,
    private readonly position: number,
  ) {
    this.#missing = Math.ceil(bytes.length / this.#page);
    this.#pages = new Uint8Array(this.#missing);
  }

  /** Whether the page holding byte `at` was read. */
  has(at: number): boolean {
    return this.#missing === 0 || this.#pages[Math.floor(at / this.#page)] === 1;
  }

  /** Reads bytes `from..to` into place without reading their page (they are the file's; a later page read rewrites them alike). */
  readBytes(from: number, to: number): void {
    this.file.read(this.bytes, from, to - from, this.position + from);
  }

  /** Reads the pages of bytes `from..to` (exclusive) not read yet, a run of missing pages at a time. */
  ensure(from: number, to: number): void {
    if (this.#missing === 0 || to <= from) return;
    const last = Math.ceil(Math.min(to, this.bytes.length) / this.#page);
    if (last === 0) return;
    for (let page = Math.floor(Math.max(0, from) / this.#page); page < last;) {
      if (this.#pages[page] === 1) {
        page++;
        continue;
      }
      const first = page;
      while (page < last && this.#pages[page] === 0) this.#pages[page++] = 1;
      const start = first * this.#page;
      const end = Math.min(page * this.#page, this.bytes.length);
      this.file.read(this.bytes, start, end - start, this.position + start);
      this.#missing -= page - first;
    }
    if (this.#missing === 0) {
      sections.delete(this.bytes.buffer);
      this.file.sectionDone(this);
    }
  }
}

/** Paged sections by their buffer: what `pageIn` finds from any typed view of one. */
const sections = new WeakMap<ArrayBufferLike, PagedSection>();

/** Closes the file of a snapshot whose arrays were all collected before every page was read. */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/** Tests: fill unread pages with `byte` (0: leave them zero, and page as in use). */
export function setUnreadPageFill(byte: number): void {
  poison = byte & 0xff;
  PAGE_BYTES = poison === 0 ? 16 * 1024 : 64;
  EAGER_BYTES = poison === 0 ? 2 * PAGE_BYTES : 0;
}

/** Makes elements `from..to` (exclusive) of `array` readable: reads their pages when it is paged. */
export function pageIn(
  array: ArrayBufferView & { readonly BYTES_PER_ELEMENT: number },
  from: number,
  to: number,
): void {
  const section = sections.get(array.buffer);
  if (section === undefined) return;
  const size = array.BYTES_PER_ELEMENT;
  section.ensure(array.byteOffset + from * size, array.byteOffset + to * size);
}

/** Makes all of `array` readable. */
export function pageInAll(array: ArrayBufferView): void {
  const section = sections.get(array.buffer);
  if (section !== undefined) section.ensure(array.byteOffset, array.byteOffset + array.byteLength);
}

/** Elements a column reads one by one before it reads its pages instead (many candidates ask). */
const SINGLES = 64;

/** Elements read one at a time so far, by the section's view (see `pageInOne`). */
const singlesRead = new WeakMap<ArrayBufferView, number>();

/**
 * Makes element `index` of `array` readable: for the first few of a section, by reading just its bytes
 * (the fields of the few documents a recall returns, each in a page of its own), then its page.
 */
export function pageInOne(array: ArrayBufferView & { readonly BYTES_PER_ELEMENT: number }, index: number): void {
  const section = sections.get(array.buffer);
  if (section === undefined) return;
  const size = array.BYTES_PER_ELEMENT;
  const at = array.byteOffset + index * size;
  if (section.has(at)) return;
  const singles = singlesRead.get(array) ?? 0;
  singlesRead.set(array, singles + 1);
  if (singles < SINGLES) section.readBytes(at, at + size);
  else section.ensure(at, at + size);
}

/** Whether any of `array` is still unread. */
export function isPaged(array: ArrayBufferView): boolean {
  return sections.has(array.buffer);
}
