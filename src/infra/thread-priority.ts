import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the CPU priority of the calling thread only (on Linux a thread has a nice value of its own),
 * for a background thread that shares a small machine's cores with the HTTP and matching threads:
 * the scheduler then gives them a core first, and the background thread takes what is left.
 * Elsewhere (no /proc) it does nothing, and says so by returning false.
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(thread)) return false;
    setPriority(thread, nice);
    return true;
  } catch {
    return false;
  }
}
