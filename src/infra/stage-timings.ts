/**
 * Where the time of one request went, stage by stage, for the `Server-Timing` response header
 * (SERVER_TIMING=true): the open-loop benchmark (bench/open-loop.ts) reads it to name the stage of
 * every slow request from evidence. Each mark closes the stage that ran since the previous mark.
 */
export class StageTimings {
  private readonly stages: { name: string; ms: number }[] = [];
  private last: number;

  constructor(readonly startedAt: number = performance.now()) {
    this.last = startedAt;
  }

  /** Ends the stage `name` now: it lasted since the previous mark (or the start). */
  mark(name: string): void {
    const now = performance.now();
    this.stages.push({ name, ms: now - this.last });
    this.last = now;
  }

  /** Moves `ms` of the stage `from` (already marked) into a stage of its own, e.g. matching out of its queue wait. */
  split(from: string, name: string, ms: number): void {
    const stage = this.stages.find((s) => s.name === from);
    if (!stage) return;
    const moved = Math.min(ms, stage.ms);
    stage.ms -= moved;
    this.stages.push({ name, ms: moved });
  }

  /** The header's value: `auth;dur=0.123, parse;dur=0.045, ..., total;dur=1.234` (milliseconds). */
  header(): string {
    const parts = this.stages.map((s) => `${s.name};dur=${s.ms.toFixed(3)}`);
    parts.push(`total;dur=${(performance.now() - this.startedAt).toFixed(3)}`);
    return parts.join(', ');
  }
}
