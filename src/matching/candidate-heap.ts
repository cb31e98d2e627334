/**
 * The best names of one query by rank, kept in a min-heap (the weakest on top) over reused typed
 * arrays: rank, the order in which the name was reached (the tie-break: on equal ranks the name
 * reached first wins, as a stable sort would have it) and the name.
 */
export interface RankedName {
  name: number;
  rank: number;
  /** Order in which the name was first reached, the tie-break. */
  seq: number;
}

export class CandidateHeap {
  private readonly ranks: Float64Array;
  private readonly order: Int32Array;
  private readonly ids: Int32Array;
  private size = 0;

  constructor(readonly capacity: number) {
    this.ranks = new Float64Array(capacity);
    this.order = new Int32Array(capacity);
    this.ids = new Int32Array(capacity);
  }

  /** Start a query's selection. */
  clear(): void {
    this.size = 0;
  }

  /** Offer a name: kept while there is room, else when it ranks above the weakest kept. */
  offer(rank: number, seq: number, id: number): void {
    const { ranks, order, ids } = this;
    if (this.size < this.capacity) {
      let at = this.size++;
      ranks[at] = rank;
      order[at] = seq;
      ids[at] = id;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.weaker(at, parent)) break;
        this.swap(at, parent);
        at = parent;
      }
    } else if (rank > ranks[0]!) {
      ranks[0] = rank;
      order[0] = seq;
      ids[0] = id;
      this.siftDown(0);
    }
  }

  /** The names kept, best first. */
  ranked(): RankedName[] {
    const out: RankedName[] = [];
    for (let at = 0; at < this.size; at++)
      out.push({ name: this.ids[at]!, rank: this.ranks[at]!, seq: this.order[at]! });
    out.sort((x, y) => y.rank - x.rank || x.seq - y.seq);
    return out;
  }

  private weaker(left: number, right: number): boolean {
    const ranks = this.ranks;
    return ranks[left]! < ranks[right]! || (ranks[left] === ranks[right] && this.order[left]! > this.order[right]!);
  }

  private swap(left: number, right: number): void {
    const { ranks, order, ids } = this;
    const rank = ranks[left]!;
    const seq = order[left]!;
    const id = ids[left]!;
    ranks[left] = ranks[right]!;
    order[left] = order[right]!;
    ids[left] = ids[right]!;
    ranks[right] = rank;
    order[right] = seq;
    ids[right] = id;
  }

  private siftDown(start: number): void {
    let at = start;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let weakest = at;
      if (left < this.size && this.weaker(left, weakest)) weakest = left;
      if (right < this.size && this.weaker(right, weakest)) weakest = right;
      if (weakest === at) return;
      this.swap(at, weakest);
      at = weakest;
    }
  }
}
