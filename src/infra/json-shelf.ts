/** A shelf's memory as it crosses to another thread: shared, so that no thread copies it. */
export interface ShelfMemory {
  /** The items' JSON, one after another, in UTF-8. */
  bytes: SharedArrayBuffer;
  /** Where each item's JSON ends in `bytes`; the first starts at 0. */
  ends: Uint32Array;
}

/** The `i`th item's JSON on a shelf's memory, parsed now. */
function itemAt<T>(text: Buffer, ends: Uint32Array, i: number): T {
  return JSON.parse(text.toString('utf8', i === 0 ? 0 : ends[i - 1], ends[i])) as T;
}

/** Every item of a shelf's memory, in order, parsed now (a thread that received the memory reads it so). */
export function shelfItems<T>(memory: ShelfMemory): T[] {
  const text = Buffer.from(memory.bytes);
  const out = new Array<T>(memory.ends.length);
  for (let i = 0; i < out.length; i++) out[i] = itemAt<T>(text, memory.ends, i);
  return out;
}

/**
 * Items (the records of one list version) kept as their JSON in shared memory outside the JavaScript
 * heap, parsed one at a time when asked for. For a thread that must hold many objects it rarely
 * reads: the HTTP thread holds the lists in force, to look a record up by its id now and then and to
 * rebuild a matching thread that dies, and its 46,000 records as objects took about 90 MiB of its
 * heap; shelved, they take 40 MiB outside any heap, which the matching threads read to build their
 * indexes without a copy (docs/latency.md).
 */
export class JsonShelf<T> {
  private readonly text: Buffer;
  private byKey: Map<string, number> | undefined;

  /** A shelf over `memory`, whose items' keys are `keys`, in order (ShelfFilling makes one). */
  constructor(
    readonly memory: ShelfMemory,
    private readonly keys: readonly string[],
  ) {
    this.text = Buffer.from(memory.bytes);
  }

  /** `items` on a shelf of their own, each found by `keyOf` of it. */
  static of<T>(items: readonly T[], keyOf: (item: T) => string): JsonShelf<T> {
    const filling = new ShelfFilling<T>();
    for (const item of items) filling.add(keyOf(item), JSON.stringify(item));
    return filling.done();
  }

  get size(): number {
    return this.memory.ends.length;
  }

  /** The `i`th item, parsed now: every call gives a new object. */
  at(i: number): T {
    return itemAt<T>(this.text, this.memory.ends, i);
  }

  /** Every item, in order, parsed now. */
  all(): T[] {
    return shelfItems<T>(this.memory);
  }

  /** The item whose key is `key` (the last one, were there two), parsed now. */
  find(key: string): T | undefined {
    if (!this.byKey) {
      this.byKey = new Map();
      for (let i = 0; i < this.keys.length; i++) this.byKey.set(this.keys[i]!, i);
    }
    const at = this.byKey.get(key);
    return at === undefined ? undefined : this.at(at);
  }
}

/** Fills a shelf with items' JSON as it is read (from the database, page after page). */
export class ShelfFilling<T> {
  private buffer = Buffer.allocUnsafe(1 << 20);
  private length = 0;
  private readonly ends: number[] = [];
  private readonly keys: string[] = [];

  /** Adds the item found by `key`, whose JSON is `json`. */
  add(key: string, json: string): void {
    const bytes = Buffer.byteLength(json, 'utf8');
    if (this.length + bytes > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(json, this.length, 'utf8');
    this.ends.push(this.length);
    this.keys.push(key);
  }

  /** The shelf, in shared memory of exactly its size. */
  done(): JsonShelf<T> {
    const bytes = new SharedArrayBuffer(this.length);
    this.buffer.copy(Buffer.from(bytes), 0, 0, this.length);
    const ends = new Uint32Array(new SharedArrayBuffer(this.ends.length * Uint32Array.BYTES_PER_ELEMENT));
    ends.set(this.ends);
    return new JsonShelf<T>({ bytes, ends }, this.keys);
  }
}
