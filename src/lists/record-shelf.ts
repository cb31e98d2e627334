import type { ListRecord } from './model.js';

/** A shelf's memory as it crosses to another thread: shared, so that no thread copies it. */
export interface ShelfMemory {
  /** The records' JSON, one after another, in UTF-8. */
  bytes: SharedArrayBuffer;
  /** Where each record's JSON ends in `bytes`; the first starts at 0. */
  ends: Uint32Array;
}

/**
 * The records of one list version, kept as their JSON in shared memory outside the JavaScript heap,
 * and parsed when one is asked for. The HTTP thread holds the lists in force (a suppression check or
 * a delta rescreen looks a record up by its entity id; a dead matching thread is rebuilt from them),
 * but reads a record rarely. As objects, the 46,000 records of eight lists took about 90 MiB of its
 * heap, and V8's scavenger walks every old-generation page before it copies anything, so each young
 * collection of the thread that answers every request cost about a millisecond more than with an
 * empty heap (docs/latency.md). Shelved, they take 40 MiB outside the heap, and the matching threads
 * read the same memory to build their indexes.
 */
export class RecordShelf {
  private readonly text: Buffer;
  private byId: Map<string, number> | undefined;

  /** A shelf over `memory`, whose records' ids are `ids`, in order (ShelfFilling makes one). */
  constructor(
    readonly memory: ShelfMemory,
    private readonly ids: readonly string[],
  ) {
    this.text = Buffer.from(memory.bytes);
  }

  /** The records on a shelf of their own (a delta rescreen's few changed records). */
  static of(records: readonly ListRecord[]): RecordShelf {
    const filling = new ShelfFilling();
    for (const record of records) filling.add(record.id, JSON.stringify(record));
    return filling.done();
  }

  get size(): number {
    return this.memory.ends.length;
  }

  /** The `i`th record, parsed now: every call gives a new object. */
  at(i: number): ListRecord {
    const ends = this.memory.ends;
    return JSON.parse(this.text.toString('utf8', i === 0 ? 0 : ends[i - 1], ends[i])) as ListRecord;
  }

  /** Every record, in order, parsed now. */
  all(): ListRecord[] {
    const out = new Array<ListRecord>(this.size);
    for (let i = 0; i < out.length; i++) out[i] = this.at(i);
    return out;
  }

  /** The record whose publisher's id is `id` (the last one, were there two), parsed now. */
  find(id: string): ListRecord | undefined {
    if (!this.byId) {
      this.byId = new Map();
      for (let i = 0; i < this.ids.length; i++) this.byId.set(this.ids[i]!, i);
    }
    const at = this.byId.get(id);
    return at === undefined ? undefined : this.at(at);
  }
}

/** Fills a shelf with records' JSON as it is read (from the database, page after page). */
export class ShelfFilling {
  private buffer = Buffer.allocUnsafe(1 << 20);
  private length = 0;
  private readonly ends: number[] = [];
  private readonly ids: string[] = [];

  /** Adds the record `id`, whose JSON is `json`. */
  add(id: string, json: string): void {
    const bytes = Buffer.byteLength(json, 'utf8');
    if (this.length + bytes > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(json, this.length, 'utf8');
    this.ends.push(this.length);
    this.ids.push(id);
  }

  /** The shelf, in shared memory of exactly its size. */
  done(): RecordShelf {
    const bytes = new SharedArrayBuffer(this.length);
    this.buffer.copy(Buffer.from(bytes), 0, 0, this.length);
    const ends = new Uint32Array(new SharedArrayBuffer(this.ends.length * Uint32Array.BYTES_PER_ELEMENT));
    ends.set(this.ends);
    return new RecordShelf({ bytes, ends }, this.ids);
  }
}
