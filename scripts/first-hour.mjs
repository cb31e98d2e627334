#!/usr/bin/env node
// The first hour, as CI runs it (.ci/run): the committed HEAD cloned into a temporary folder beside
// ../shared (a symlink to the real one), with no data/, then the README's own commands exactly as it
// prints them: the ```sh blocks after <!-- first-hour:install -->, <!-- first-hour:start --> and
// <!-- first-hour:session -->. The start command serves while the session runs; the session's output
// must show the listed name high, the innocent name low and the error examples in the envelope.
// Exits 1 on any failure. FIRST_HOUR_KEEP=1 keeps the temporary folder.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = process.cwd();
const fail = (message) => {
  console.error(`first-hour: FAILED: ${message}`);
  process.exitCode = 1;
};

/** The ```sh block that follows `<!-- first-hour:NAME -->` in the README. */
export function readmeBlock(readme, name) {
  const marker = `<!-- first-hour:${name} -->`;
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no ${marker}`);
  const match = /^\s*```sh\n([\s\S]*?)\n```/.exec(readme.slice(at + marker.length));
  if (!match) throw new Error(`README.md: no \`\`\`sh block right after ${marker}`);
  return match[1];
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Runs `script` with bash in `cwd`; resolves with its exit code and output. */
function bash(script, cwd, env, { echo = true } = {}) {
  const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const take = (stream, sink) =>
    stream.on('data', (chunk) => {
      out += chunk.toString();
      if (echo) sink.write(chunk);
    });
  take(child.stdout, process.stdout);
  take(child.stderr, process.stderr);
  const exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal, out })));
  return { child, exited, output: () => out };
}

/** The assertions on the session's output, in the order the README's commands print. */
export function checkSession(out) {
  const problems = [];
  const lines = out.split('\n');
  const after = (re, from = 0) => {
    const i = lines.findIndex((l, n) => n >= from && re.test(l));
    return i;
  };
  const putin = after(/^\{"success":true/);
  if (putin < 0 || !/"riskLevel":"high"/.test(lines[putin]))
    problems.push(`"Vladimir Putin" is not high: ${lines[putin] ?? out.slice(0, 400)}`);
  const innocent = after(/Emily Johnson|"riskLevel":"low"/, putin + 1);
  const innocentLine = lines.find(
    (l) => /^\{"success":true,"data":\{[^\n]*"riskLevel":"low"/.test(l) && /"matches":\[\]|"riskScore":0\b/.test(l),
  );
  if (innocent < 0 || !innocentLine) problems.push('the innocent name ("Emily Johnson") is not low with no match');
  if (
    !lines.some((l) =>
      /^\{"success":false,"error":\{"code":"VALIDATION_ERROR","message":"name[^"]*","field":"name"\}\}$/.test(l),
    )
  )
    problems.push('the empty name is not answered 400 VALIDATION_ERROR naming name in the envelope');
  if (!lines.some((l) => /^\{"success":false,"error":\{"code":"UNAUTHORIZED","message":"[^"]+"\}\}$/.test(l)))
    problems.push('the request without a key is not answered UNAUTHORIZED in the envelope');
  if (!lines.some((l) => /^\{"success":true,"data":\{"id":"mon_/.test(l))) problems.push('the monitor was not created');
  return problems;
}

async function main() {
  const shared = realpathSync(resolve(repo, '..', 'shared'));
  if (!existsSync(join(shared, 'data', 'lists')))
    return fail(`${shared}/data/lists is absent: the first hour needs the list files`);
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  const root = mkdtempSync(join(tmpdir(), 'sanctions-first-hour-'));
  const clone = join(root, 'main');
  let server;
  try {
    symlinkSync(shared, join(root, 'shared'));
    execFileSync('git', ['clone', '--quiet', '--no-checkout', repo, clone]);
    execFileSync('git', ['-C', clone, 'checkout', '--quiet', head]);
    if (existsSync(join(clone, 'data'))) return fail('the clone has a data/ folder');
    const readme = readFileSync(join(clone, 'README.md'), 'utf8');
    const [install, start, session] = ['install', 'start', 'session'].map((n) => readmeBlock(readme, n));
    const port = await freePort();
    // Only what a newcomer's shell has: none of the service's settings, and the port the README allows.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? root, PORT: String(port) };
    console.log(`first-hour: clone of ${head.slice(0, 12)} in ${clone}, port ${port}\n$ ${install}`);
    const installed = await bash(install, clone, env).exited;
    if (installed.code !== 0) return fail(`the install command exited ${installed.code}`);

    console.log(`$ ${start}`);
    server = bash(start, clone, env, { echo: false });
    console.log('$ (the session)');
    const run = bash(session, clone, env);
    const limit = setTimeout(() => process.kill(-run.child.pid, 'SIGKILL'), 15 * 60_000);
    const ended = await Promise.race([
      run.exited.then((r) => ({ ...r, what: 'session' })),
      server.exited.then((r) => ({ ...r, what: 'server' })),
    ]);
    clearTimeout(limit);
    if (ended.what === 'server') {
      process.kill(-run.child.pid, 'SIGKILL');
      return fail(`the server stopped (exit ${ended.code}) before the session ended:\n${server.output().slice(-3000)}`);
    }
    const problems = checkSession(ended.out);
    if (problems.length) {
      console.error(`server log (end):\n${server.output().slice(-2000)}`);
      return fail(problems.join('\n'));
    }
    console.log('first-hour: passed (Vladimir Putin high, the innocent name low, errors in the envelope)');
  } finally {
    if (server && server.child.exitCode === null) {
      process.kill(-server.child.pid, 'SIGTERM');
      await server.exited;
    }
    if (process.env.FIRST_HOUR_KEEP !== '1') rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && /first-hour\.mjs$/.test(process.argv[1])) {
  main().catch((error) => fail(error.stack ?? String(error)));
}
