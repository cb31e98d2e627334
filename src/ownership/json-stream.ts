/**
 * Splits a large JSON document into its records without holding the whole text: the GLEIF
 * golden-copy JSON is one object `{"records":[…]}` of several gigabytes, and JSON:API files put
 * their records under `data`. For each top-level key asked for, the value is handed over parsed:
 * element by element when it is an array, whole otherwise. A top-level array is split the same
 * way under the key ''.
 */
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

export class JsonRecordSplitter {
  private readonly stack: number[] = [];
  private inString = false;
  private escaped = false;
  /** Characters of the string being read at depth 1, the candidate key. */
  private keyChars: string[] | undefined;
  private lastString = '';
  private key: string | undefined;
  /** Key whose array (at depth 2) is being split. */
  private arrayKey: string | undefined;
  private arrayDepth = -1;
  private capture: { key: string; depth: number; parts: string[]; start: number } | undefined;

  constructor(
    private readonly keys: ReadonlySet<string>,
    private readonly onValue: (key: string, value: unknown) => void,
  ) {}

  write(chunk: string): void {
    const stack = this.stack;
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) {
          this.inString = false;
          if (this.keyChars) {
            this.lastString = this.keyChars.join('');
            this.keyChars = undefined;
          }
          continue;
        }
        if (this.keyChars && this.keyChars.length < 256) this.keyChars.push(chunk[i]!);
        continue;
      }
      if (code === QUOTE) {
        this.inString = true;
        if (stack.length === 1 && stack[0] === OPEN_OBJECT && !this.capture) this.keyChars = [];
      } else if (code === COLON) {
        if (stack.length === 1) this.key = this.lastString;
      } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
        if (!this.capture) this.maybeStart(code, i);
        stack.push(code);
      } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
        const popped = stack.pop();
        if (popped === OPEN_ARRAY && stack.length === this.arrayDepth) {
          this.arrayKey = undefined;
          this.arrayDepth = -1;
        }
        const cap = this.capture;
        if (cap && stack.length === cap.depth) {
          cap.parts.push(chunk.slice(cap.start, i + 1));
          this.capture = undefined;
          this.onValue(cap.key, JSON.parse(cap.parts.join('')));
        }
      }
    }
    if (this.capture) {
      this.capture.parts.push(chunk.slice(this.capture.start));
      this.capture.start = 0;
    }
  }

  private maybeStart(c: number, i: number): void {
    const depth = this.stack.length;
    let key: string | undefined;
    if (depth === 0 && c === OPEN_ARRAY && this.keys.has('')) {
      this.arrayKey = '';
      this.arrayDepth = 0;
      return;
    }
    if (depth === 1 && this.stack[0] === OPEN_OBJECT && this.key !== undefined && this.keys.has(this.key)) {
      if (c === OPEN_ARRAY) {
        this.arrayKey = this.key;
        this.arrayDepth = 1;
        return;
      }
      key = this.key;
    } else if (depth === 1 && this.stack[0] === OPEN_ARRAY && this.arrayKey === '') {
      key = '';
    } else if (depth === 2 && this.stack[1] === OPEN_ARRAY && this.arrayKey !== undefined && this.arrayKey !== '') {
      key = this.arrayKey;
    }
    if (key !== undefined) this.capture = { key, depth, parts: [], start: i };
  }

  end(): void {
    if (this.capture || this.stack.length > 0) throw new Error('JSON document ends inside a value');
  }
}
