import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { unCslAdapter } from '../../src/lists/adapters/un-csl.js';
import type { ParsedList } from '../../src/lists/model.js';

const DIR = path.resolve(process.cwd(), '../shared/data/lists/un_csl');
const FILE = path.join(DIR, 'consolidated.xml');
const absent = existsSync(FILE) ? false : 'shared/data/lists/un_csl/consolidated.xml absent';

async function withFile(name: string, content: string, fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'un-csl-'));
  try {
    await writeFile(path.join(dir, name), content);
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('un_csl adapter on the real consolidated.xml', { skip: absent }, () => {
  let parsed: ParsedList;
  const get = async (): Promise<ParsedList> => (parsed ??= await unCslAdapter.parse(DIR));
  const byRef = async (ref: string) => {
    const hit = (await get()).records.find((r) => r.identifiers.some((i) => i.type === 'un_ref' && i.value === ref));
    assert.ok(hit, `record ${ref} present`);
    return hit;
  };

  it('parses every INDIVIDUAL and ENTITY, counted independently from the raw text', async () => {
    const raw = readFileSync(FILE, 'utf8');
    const individuals = raw.match(/<INDIVIDUAL>/g)?.length ?? 0;
    const entities = raw.match(/<ENTITY>/g)?.length ?? 0;
    const result = await get();
    assert.equal(result.records.length, individuals + entities);
    assert.equal(result.records.filter((r) => r.entityType === 'person').length, individuals);
    assert.equal(new Set(result.records.map((r) => r.id)).size, result.records.length, 'DATAIDs unique');
    assert.equal(result.publishedAt, /dateGenerated="(\d{4}-\d{2}-\d{2})/.exec(raw)?.[1]);
    assert.equal(result.source, 'un_csl');
  });

  it('reads a person with original-script name, weak alias, approximate DOB, passport and titles (TAi.011)', async () => {
    const r = await byRef('TAi.011');
    assert.equal(r.id, '111090');
    assert.equal(r.name, 'AKHTAR MOHAMMAD MANSOUR SHAH MOHAMMED');
    assert.deepEqual(
      r.aliases.find((a) => a.script === 'Arabic'),
      {
        name: 'اختر محمد منصور شاه محمد',
        quality: 'strong',
        kind: 'variation',
        script: 'Arabic',
      },
    );
    assert.deepEqual(
      r.aliases.find((a) => a.name === 'Naib Imam'),
      { name: 'Naib Imam', quality: 'weak', kind: 'aka' },
    );
    assert.equal(r.aliases.find((a) => a.name === 'Akhtar Muhammad Mansoor')?.quality, 'strong');
    assert.deepEqual(r.birthDates, [{ date: '1960', approximate: true }, { date: '1966' }]);
    assert.deepEqual(r.birthPlaces, ['Band-e-Timur village, Maiwand District, Kandahar Province, Afghanistan']);
    assert.deepEqual(r.nationalities, ['AF']);
    assert.deepEqual(r.programs, ['Taliban']);
    assert.equal(r.listingDate, '2001-01-25');
    assert.deepEqual(r.titles, ['Maulavi', 'Mullah']);
    const passport = r.identifiers.find((i) => i.type === 'passport');
    assert.equal(passport?.value, 'SE-011697');
    assert.equal(passport?.country, 'AF');
    assert.match(r.remarks ?? '', /Ishaqzai tribe/);
  });

  it('expands BETWEEN birth years into approximate years', async () => {
    const raw = readFileSync(FILE, 'utf8');
    const block =
      /<INDIVIDUAL>(?:(?!<\/INDIVIDUAL>)[\s\S])*?<TYPE_OF_DATE>BETWEEN<\/TYPE_OF_DATE>\s*<FROM_YEAR>(\d{4})<\/FROM_YEAR>\s*<TO_YEAR>(\d{4})<\/TO_YEAR>/.exec(
        raw,
      );
    assert.ok(block);
    const dataId = /<DATAID>(\d+)<\/DATAID>/.exec(block[0])?.[1];
    const r = (await get()).records.find((x) => x.id === dataId);
    const from = Number(block[1]);
    const to = Number(block[2]);
    for (let y = from; y <= to; y++) {
      assert.ok(
        r?.birthDates.some((d) => d.date === String(y) && d.approximate),
        `year ${y} approximate`,
      );
    }
  });

  it('reads an entity with f.k.a. names, addresses and a company IMO number from the comments', async () => {
    const aqim = await byRef('QDe.014');
    assert.equal(aqim.entityType, 'organization');
    assert.equal(aqim.aliases.find((a) => a.name === 'Salafist Group For Call and Combat')?.kind, 'fka');
    assert.equal(aqim.aliases.find((a) => a.name === 'AQIM')?.kind, 'aka');
    assert.deepEqual(
      aqim.addresses.map((a) => a.country),
      ['DZ', 'ML', 'MR', 'MA', 'NE', 'TN'],
    );
    const omm = await byRef('KPe.020');
    assert.ok(omm.identifiers.some((i) => i.type === 'imo' && i.value === '1790183'));
    assert.equal(omm.addresses[0]?.country, 'KP');
  });
});

describe('un_csl adapter on bad input', () => {
  it('throws when the directory has no consolidated.xml', async () => {
    await withFile('other.xml', '<x/>', async (dir) => {
      await assert.rejects(unCslAdapter.parse(dir), /no consolidated\.xml/);
    });
  });
  it('throws a clear error on garbage', async () => {
    await withFile('CONSOLIDATED.XML', 'this is not xml at all', async (dir) => {
      await assert.rejects(unCslAdapter.parse(dir), /CONSOLIDATED\.XML: malformed XML/);
    });
  });
  it('throws on truncated XML', async () => {
    const xml =
      '<?xml version="1.0"?><CONSOLIDATED_LIST dateGenerated="2026-01-01"><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>A';
    await withFile('consolidated.xml', xml, async (dir) => {
      await assert.rejects(unCslAdapter.parse(dir), /malformed XML/);
    });
  });
  it('throws on a different XML document', async () => {
    await withFile('consolidated.xml', '<sdnList><sdnEntry/></sdnList>', async (dir) => {
      await assert.rejects(unCslAdapter.parse(dir), /expected <CONSOLIDATED_LIST>/);
    });
  });
});
