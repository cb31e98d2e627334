import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadOwnershipDir } from '../../src/ownership/index.js';
import { JsonRecordSplitter } from '../../src/ownership/json-stream.js';

const DATA = path.resolve(process.cwd(), '../shared/data/ownership');
const GOLDEN = path.join(DATA, 'gleif_golden_copy');
const absent = existsSync(GOLDEN) ? false : 'shared/data/ownership is absent';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

test('real GLEIF golden-copy XML and JSON samples parse in full', { skip: absent }, async () => {
  const data = await loadOwnershipDir(DATA);
  const byFile = new Map(data.files.map((f) => [f.file, f]));
  const raw = (name: string): string => readFileSync(path.join(GOLDEN, name), 'utf8');
  const count = (text: string, re: RegExp): number => text.match(re)?.length ?? 0;

  for (const name of ['lei-data.xml', 'lei-updates-data2.xml']) {
    assert.equal(byFile.get(`gleif_golden_copy/${name}`)?.format, 'gleif-lei-cdf-xml');
    assert.equal(byFile.get(`gleif_golden_copy/${name}`)?.records, count(raw(name), /<lei:LEIRecord[\s>]/g), name);
  }
  for (const name of ['rr-data.xml', 'rr-updates-data2.xml']) {
    assert.equal(byFile.get(`gleif_golden_copy/${name}`)?.format, 'gleif-rr-cdf-xml');
    assert.equal(
      byFile.get(`gleif_golden_copy/${name}`)?.records,
      count(raw(name), /<rr:RelationshipRecord[\s>]/g),
      name,
    );
  }
  const jsonName = '20240505-0000-gleif-goldencopy-lei2-intra-day.json';
  const json = byFile.get(`gleif_golden_copy/${jsonName}`);
  assert.equal(json?.format, 'gleif-golden-copy-json');
  assert.equal(json?.records, count(raw(jsonName), /"LEI"\s*:\s*\{\s*"\$"/g));
  assert.equal(byFile.get('gleif_golden_copy/lei-data.xml')?.contentDate, '2023-06-05');
  // Files of other kinds (PSC, FollowTheMoney) are recognized as not ownership input and left out.
  assert.equal(byFile.get('uk_psc/psc-data-1.json')?.format, 'ignored');
  assert.equal(byFile.get('opensanctions_ftm/zala_entities.ftm.json')?.format, 'ignored');

  // Every LEI with reference data, counted from the raw text of all formats.
  const leis = new Set<string>();
  const relationships = new Set<string>();
  let quantified = 0;
  for (const file of walk(DATA)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/<lei:LEI>([A-Z0-9]{20})<\/lei:LEI>/g)) leis.add(m[1]!);
    for (const m of text.matchAll(/"LEI"\s*:\s*\{\s*"\$"\s*:\s*"([A-Z0-9]{20})"/g)) leis.add(m[1]!);
    for (const m of text.matchAll(/"type":"lei-records","id":"([A-Z0-9]{20})"/g)) leis.add(m[1]!);
    for (const block of text.split(/<rr:RelationshipRecord[\s>]/).slice(1)) {
      const start = /<rr:StartNode>\s*<rr:NodeID>(\w+)/.exec(block)?.[1];
      const end = /<rr:EndNode>\s*<rr:NodeID>(\w+)/.exec(block)?.[1];
      const type = /<rr:RelationshipType>([\w-]+)/.exec(block)?.[1];
      relationships.add(`${start}>${end}>${type}`);
      if (type === 'IS_DIRECTLY_CONSOLIDATED_BY' && /<rr:QuantifierUnits>PERCENTAGE</.test(block)) quantified++;
    }
    for (const m of text.matchAll(
      /"startNode":\{"id":"(\w+)","type":"LEI"\},"endNode":\{"id":"(\w+)","type":"LEI"\},"type":"([\w-]+)"/g,
    )) {
      relationships.add(`${m[1]}>${m[2]}>${m[3]}`);
    }
  }
  assert.equal(data.counts.entities, leis.size);
  assert.equal(data.counts.relationships, relationships.size);
  assert.ok(quantified > 0);
  assert.equal(data.counts.byKind.stake, quantified, 'only direct relationships with a percentage are stakes');
  assert.equal(data.asOf, '2025-05-15');
  assert.match(data.sha256, /^[0-9a-f]{64}$/);

  // Spot checks against the raw text.
  assert.equal(data.entities.get('001GPB6A9XPE8XJICC14')?.name, 'Fidelity Advisor Leveraged Company Stock Fund');
  assert.equal(data.entities.get('001GPB6A9XPE8XJICC14')?.country, 'US');
  assert.equal(data.entities.get('097900BID10000147476')?.name, 'ALFA REY s.r.o.');
  assert.equal(data.entities.get('254900LNRYNOQ9YPU758')?.name, 'Amazon Digital UK Limited');
  const fundManaged = [...data.stakes].find(
    (s) => s.ownedLei === '001GPB6A9XPE8XJICC14' && s.type === 'IS_FUND-MANAGED_BY',
  );
  assert.equal(fundManaged?.ownerLei, '5493001Z012YSB2A0K51', 'EndNode is the parent');
  assert.equal(fundManaged?.kind, 'not_ownership');
});

test('the data version changes with the content', { skip: absent }, async () => {
  const a = await loadOwnershipDir(GOLDEN);
  const b = await loadOwnershipDir(GOLDEN);
  const c = await loadOwnershipDir(path.resolve(process.cwd(), 'test/fixtures/ownership/threshold'));
  assert.equal(a.sha256, b.sha256);
  assert.notEqual(a.sha256, c.sha256);
});

test('a missing directory is an error; a malformed file names itself', async () => {
  await assert.rejects(loadOwnershipDir(path.resolve(process.cwd(), 'test/fixtures/ownership/none')), /not found/);
  const dir = mkdtempSync(path.join(tmpdir(), 'ownership-'));
  try {
    writeFileSync(
      path.join(dir, 'broken.xml'),
      '<rr:RelationshipData xmlns:rr="x"><rr:RelationshipRecords><rr:Oops></rr:RelationshipData>',
    );
    await assert.rejects(loadOwnershipDir(dir), /^Error: broken\.xml: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the JSON splitter yields records across any chunk boundary', () => {
  const doc = JSON.stringify({
    meta: { a: '}{' },
    records: [{ LEI: { $: 'A"]' } }, { LEI: { $: 'B' }, n: [1, { x: 2 }] }],
    tail: [{ skip: 1 }],
  });
  const expected = [
    ['meta', { a: '}{' }],
    ['records', { LEI: { $: 'A"]' } }],
    ['records', { LEI: { $: 'B' }, n: [1, { x: 2 }] }],
  ];
  for (const size of [1, 2, 3, 7, doc.length]) {
    const out: [string, unknown][] = [];
    const splitter = new JsonRecordSplitter(new Set(['meta', 'records']), (k, v) => out.push([k, v]));
    for (let i = 0; i < doc.length; i += size) splitter.write(doc.slice(i, i + size));
    splitter.end();
    assert.deepEqual(out, expected, `chunk size ${size}`);
  }
  const top: unknown[] = [];
  const arraySplitter = new JsonRecordSplitter(new Set(['']), (_k, v) => top.push(v));
  arraySplitter.write('[{"a":1},{"b":[2]}]');
  assert.deepEqual(top, [{ a: 1 }, { b: [2] }]);
});
