import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ENGINES, SHARED_DATA, type TestEnv, testEnv } from '../helpers/harness.js';
import { CLI_BUILT, type CliResult, cli } from '../helpers/cli.js';

/** `sanctions lists sync --from <dir>` and `lists status` on a real list file (UN consolidated list). */

const UN_FILE = resolve(SHARED_DATA, 'lists/un_csl/consolidated.xml');

function ok(res: CliResult): void {
  assert.equal(
    res.code,
    0,
    `exit ${res.code}\nstdout: ${res.stdout.slice(0, 2000)}\nstderr: ${res.stderr.slice(0, 2000)}`,
  );
  assert.notEqual(res.json, undefined, `stdout is one JSON document: ${res.stdout.slice(0, 500)}`);
}

interface Status {
  source: string;
  records: number;
  version: string | null;
  publishedAt: string | null;
  fetchedAt: string | null;
  stale: boolean;
  lastError: string | null;
}

const skipReason = !CLI_BUILT
  ? 'dist/ is not built (npx tsc -p tsconfig.json)'
  : !existsSync(UN_FILE)
    ? `${UN_FILE} is absent`
    : false;

for (const { engine, skip } of ENGINES) {
  describe(`sanctions lists sync / status (${engine})`, { skip: skip || skipReason }, () => {
    let env: TestEnv;
    let work: string;
    let expectedRecords: number;
    before(() => {
      env = testEnv(engine);
      work = mkdtempSync(join(tmpdir(), 'lists-cli-'));
      // Counted from the raw text, independently of the parser: one record per INDIVIDUAL or ENTITY element.
      const xml = readFileSync(UN_FILE, 'utf8');
      expectedRecords = (xml.match(/<INDIVIDUAL>/g) ?? []).length + (xml.match(/<ENTITY>/g) ?? []).length;
    });
    after(async () => {
      rmSync(work ?? '', { recursive: true, force: true });
      await env?.cleanup();
    });

    const status = async (): Promise<Status[]> => {
      const res = await cli(env, ['lists', 'status', '--json']);
      ok(res);
      assert.ok(Array.isArray(res.json));
      return res.json as Status[];
    };

    it('status before any sync: every source without a version, stale', async () => {
      const all = await status();
      assert.ok(all.length >= 9);
      const un = all.find((s) => s.source === 'un_csl') as Status;
      assert.deepEqual(
        { version: un.version, records: un.records, stale: un.stale },
        { version: null, records: 0, stale: true },
      );
    });

    let goodVersion: string;
    it('syncs the UN list from a directory and reports it', async () => {
      const good = join(work, 'good');
      mkdirSync(join(good, 'un_csl'), { recursive: true });
      copyFileSync(UN_FILE, join(good, 'un_csl', 'consolidated.xml'));
      const res = await cli(env, ['lists', 'sync', '--from', good, '--source', 'un_csl', '--json']);
      ok(res);
      const outcome = (res.json as { source: string; status: string; version: string; records: number }[]).find(
        (o) => o.source === 'un_csl',
      );
      assert.equal(outcome?.status, 'updated', res.stdout.slice(0, 1000));
      assert.equal(outcome?.records, expectedRecords);
      goodVersion = outcome?.version as string;
      assert.match(goodVersion, /^lv_/);

      const un = (await status()).find((s) => s.source === 'un_csl') as Status;
      assert.equal(un.version, goodVersion);
      assert.equal(un.records, expectedRecords);
      assert.equal(un.stale, false);
      assert.equal(un.lastError, null);
      // The publisher's date is the file's dateGenerated attribute.
      const generated = /dateGenerated="(\d{4}-\d{2}-\d{2})/.exec(readFileSync(UN_FILE, 'utf8'))?.[1];
      assert.equal(un.publishedAt?.slice(0, 10), generated);
      assert.match(un.fetchedAt ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
      assert.ok(Math.abs(Date.parse(un.fetchedAt as string) - Date.now()) < 10 * 60 * 1000, 'fetched just now');
    });

    it('a directory without the source skips it and changes nothing', async () => {
      const empty = join(work, 'empty');
      mkdirSync(empty, { recursive: true });
      const res = await cli(env, ['lists', 'sync', '--from', empty, '--source', 'un_csl', '--json']);
      ok(res);
      assert.equal(res.json[0].status, 'skipped');
      assert.equal((await status()).find((s) => s.source === 'un_csl')?.version, goodVersion);
    });

    it('a garbage file for the same source is rejected; the good version stays in force', async () => {
      const bad = join(work, 'bad');
      mkdirSync(join(bad, 'un_csl'), { recursive: true });
      writeFileSync(join(bad, 'un_csl', 'consolidated.xml'), '<html><body>502 Bad Gateway</body></html>\n');
      const res = await cli(env, ['lists', 'sync', '--from', bad, '--source', 'un_csl', '--json']);
      assert.notEqual(res.code, 0, 'a rejected sync exits non-zero');
      assert.notEqual(res.json, undefined, 'still one JSON document');
      const outcome = res.json.find((o: { source: string }) => o.source === 'un_csl');
      assert.equal(outcome.status, 'rejected');
      assert.equal(outcome.version, goodVersion);

      const un = (await status()).find((s) => s.source === 'un_csl') as Status;
      assert.equal(un.version, goodVersion);
      assert.equal(un.records, expectedRecords);
      assert.equal(un.stale, true, 'a rejected last attempt makes the source stale');
      assert.equal(typeof un.lastError, 'string');
    });

    it('a truncated copy (far fewer records) is refused by the sanity guard', async () => {
      const xml = readFileSync(UN_FILE, 'utf8');
      // Keep the first 50 individuals and drop the rest of the list.
      let cut = 0;
      for (let i = 0; i < 50; i++) cut = xml.indexOf('</INDIVIDUAL>', cut) + '</INDIVIDUAL>'.length;
      const truncated = `${xml.slice(0, cut)}\n  </INDIVIDUALS>\n  <ENTITIES/>\n</CONSOLIDATED_LIST>\n`;
      const dir = join(work, 'truncated');
      mkdirSync(join(dir, 'un_csl'), { recursive: true });
      writeFileSync(join(dir, 'un_csl', 'consolidated.xml'), truncated);
      const res = await cli(env, ['lists', 'sync', '--from', dir, '--source', 'un_csl', '--json']);
      assert.notEqual(res.code, 0);
      assert.equal(res.json[0].status, 'rejected');
      assert.equal((await status()).find((s) => s.source === 'un_csl')?.records, expectedRecords);
    });

    it('wrong arguments: an unknown source is a usage error', async () => {
      const res = await cli(env, ['lists', 'sync', '--source', 'xx_list', '--from', work, '--json']);
      assert.notEqual(res.code, 0);
      assert.match(res.stderr, /Usage: sanctions lists sync/);
      assert.equal((await status()).find((s) => s.source === 'un_csl')?.version, goodVersion);
    });

    it('lists changes: a version with an alias added shows it as a major change of that entity', async () => {
      const changed = readFileSync(UN_FILE, 'utf8').replace(
        /(<DATAID>6907993<\/DATAID>[\s\S]*?)(<INDIVIDUAL_ALIAS>)/,
        '$1<INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>Tessaly Vornhagen</ALIAS_NAME></INDIVIDUAL_ALIAS>$2',
      );
      const dir = join(work, 'changed');
      mkdirSync(join(dir, 'un_csl'), { recursive: true });
      writeFileSync(join(dir, 'un_csl', 'consolidated.xml'), changed);
      ok(await cli(env, ['lists', 'sync', '--from', dir, '--source', 'un_csl', '--json']));
      const res = await cli(env, ['lists', 'changes', '--since', goodVersion, '--json']);
      ok(res);
      const page = res.json as { items: { entityId: string; kind: string; major: boolean; changes: Json }[] };
      assert.equal(page.items.length, 1, res.stdout.slice(0, 1000));
      assert.equal(page.items[0]?.entityId, 'un_csl:6907993');
      assert.equal(page.items[0]?.kind, 'changed');
      assert.equal(page.items[0]?.major, true);
      assert.deepEqual(page.items[0]?.changes.aliases, { added: ['Tessaly Vornhagen'], removed: [] });
      const text = await cli(env, ['lists', 'changes', '--source', 'un_csl']);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /un_csl:6907993 .* aliases \+Tessaly Vornhagen/);
      const bad = await cli(env, ['lists', 'changes', '--kind', 'renamed']);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /--kind/);
    });
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
