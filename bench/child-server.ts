/**
 * `sanctions serve` as a real child process, for the tests that kill, drain, back up or restore a
 * server: the test waits on what the server logs (pino JSON lines), never for a time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const runningFromSource = fileURLToPath(import.meta.url).endsWith('.ts');

export type LogLine = Record<string, unknown> & { msg?: string };

export interface ServerProcess {
  proc: ChildProcess;
  url: string;
  lines: LogLine[];
  /** Resolves with the first log line, past or future, that `match` accepts; fails if the process exits first. */
  logged(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code (or the signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill9(): Promise<void>;
}

export function spawnServer(env: Record<string, string>, options: { port?: number } = {}): Promise<ServerProcess> {
  const args = runningFromSource ? ['--import', 'tsx', 'src/start/server.ts'] : ['dist/src/start/server.js'];
  const proc = spawn(process.execPath, args, {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(options.port ?? 0),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<{ match: (line: LogLine) => boolean; settle: (line?: LogLine) => void }>();
  let hasExited = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => {
      hasExited = true;
      for (const w of [...waiters]) w.settle();
      resolve({ code, signal });
    }),
  );
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      return;
    }
    lines.push(line);
    for (const w of [...waiters]) if (w.match(line)) w.settle(line);
  });
  const logged = (match: (line: LogLine) => boolean, timeoutMs = 30_000) => {
    const seen = lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<LogLine>((resolve, reject) => {
      const waiter = {
        match,
        settle: (line?: LogLine) => {
          waiters.delete(waiter);
          clearTimeout(timer);
          if (line) resolve(line);
          else
            reject(new Error(`the server process ended or timed out before the awaited log line; stderr: ${stderr}`));
        },
      };
      const timer = setTimeout(() => waiter.settle(), timeoutMs);
      if (hasExited) return waiter.settle();
      waiters.add(waiter);
    });
  };
  const kill = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  };
  return logged((l) => l.msg === 'sanctions screening service listening' && typeof l.url === 'string').then(
    (line) => ({
      proc,
      url: line.url as string,
      lines,
      logged,
      exited,
      async kill9() {
        if (proc.exitCode === null && proc.signalCode === null) {
          proc.kill('SIGKILL');
          await exited;
        }
      },
    }),
    (error: unknown) => {
      kill();
      throw error;
    },
  );
}

/** A server process once it has loaded the lists from its database. */
export async function spawnReadyServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = await spawnServer(env);
  try {
    await child.logged((l) => l.msg === 'lists loaded', timeoutMs);
  } catch (error) {
    await child.kill9();
    throw error;
  }
  return child;
}

export interface Json {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** One JSON request; network failures (a killed server) come back as status 0. */
export async function callJson(
  url: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Json> {
  try {
    const res = await fetch(url + path, {
      method,
      headers: {
        ...(options.key ? { 'x-api-key': options.key } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body };
  } catch {
    return { status: 0, headers: new Headers(), body: undefined };
  }
}
