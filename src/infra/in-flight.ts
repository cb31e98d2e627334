/**
 * A count of work under way (interactive HTTP requests) that background work yields to: the HTTP
 * layer enters and leaves, a background job asks `busy` before it starts more and waits on `idle()`.
 * Made once in src/start/services.ts and handed to both sides, so no domain imports the HTTP layer.
 */
export class InFlight {
  private count = 0;
  /**
   * The count, readable from other threads (a validation run in a thread of its own paces itself by
   * it: start/validation-thread.ts). One Int32, written on every enter and leave.
   */
  readonly shared = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  private waiters: (() => void)[] = [];
  /** When the count last fell to zero (performance.now()); -Infinity before any work. */
  private quietSince = -Infinity;

  get size(): number {
    return this.count;
  }

  get busy(): boolean {
    return this.count > 0;
  }

  enter(): void {
    this.count++;
    Atomics.store(this.shared, 0, this.count);
  }

  leave(): void {
    if (this.count === 0) return;
    this.count--;
    Atomics.store(this.shared, 0, this.count);
    if (this.count === 0) {
      this.quietSince = performance.now();
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    }
  }

  /** Milliseconds since the last work ended; 0 while some is under way. */
  quietFor(): number {
    return this.count > 0 ? 0 : performance.now() - this.quietSince;
  }

  /** Resolves when nothing is under way (at once if nothing is). */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
