import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  addAlias,
  addDates,
  aliasKey,
  clean,
  countryCode,
  partialDate,
  readListDir,
  splitEnumerated,
  squash,
  streamXmlChildren,
  yearsBetween,
} from '../../src/lists/adapters/kit/index.js';
import { emptyRecord, type PartialDate } from '../../src/lists/model.js';

describe('adapter kit', () => {
  it('de-duplicates aliases by one rule: letter case, width and composition folded, accents kept', () => {
    const r = emptyRecord('un_csl', '1', 'person', 'ALI Hassan');
    addAlias(r, 'Ali HASSAN', 'strong', 'aka');
    addAlias(r, 'ＨＡＳＳＡＮ Ａｌｉ', 'weak', 'aka');
    addAlias(r, 'Hassan Ali', 'strong', 'aka');
    addAlias(r, 'GROSS Peter', 'weak', 'aka');
    addAlias(r, 'Groß Peter', 'strong', 'aka');
    addAlias(r, 'Jose\u0301', 'weak', 'aka');
    addAlias(r, 'José', 'weak', 'aka');
    addAlias(r, 'Jose', 'weak', 'aka');
    assert.deepEqual(
      r.aliases.map((a) => [a.name, a.quality]),
      [
        ['ＨＡＳＳＡＮ Ａｌｉ', 'strong'],
        ['GROSS Peter', 'strong'],
        ['Jose\u0301', 'weak'],
        ['Jose', 'weak'],
      ],
    );
    assert.equal(aliasKey('İSTANBUL'), aliasKey('İstanbul'));
    assert.notEqual(aliasKey('Müller'), aliasKey('Muller'));
  });

  it('splits enumerations, with markers glued to the item before or in Japanese quotation brackets', () => {
    assert.deepEqual(splitEnumerated('a) x b) y'), ['x', 'y']);
    assert.deepEqual(splitEnumerated('(a)Mahmoud(b)AL-ZAHHAR(c)AL-ZAHAR'), ['Mahmoud', 'AL-ZAHHAR', 'AL-ZAHAR']);
    assert.deepEqual(splitEnumerated('a)「アミン」b)「カワ」'), ['アミン', 'カワ']);
    // A number and a bracket that start no sequence stay text.
    assert.deepEqual(splitEnumerated('Road 3) x'), ['Road 3) x']);
    assert.deepEqual(splitEnumerated('Ltd(b)'), ['Ltd(b)']);
  });

  it('drops placeholders in free text but keeps NA as a country code', () => {
    assert.equal(clean('  -0- '), undefined);
    assert.equal(clean('na'), undefined);
    assert.equal(clean('不明'), undefined);
    assert.equal(clean(' Al  Qaida\n'), 'Al Qaida');
    assert.equal(squash(' NA '), 'NA');
    assert.equal(countryCode('NA'), 'NA');
    assert.equal(countryCode('na'), undefined);
    assert.equal(countryCode('Eritrean'), 'ER');
    assert.equal(countryCode('Trinidad and Tobago'), 'TT');
  });

  it('builds partial dates and year ranges, refusing impossible ones', () => {
    assert.equal(partialDate(1961, 4, 0), '1961-04');
    assert.equal(partialDate(1961, 0, 12), '1961');
    assert.equal(partialDate(1961, 2, 30), undefined);
    assert.equal(partialDate(Number(undefined)), undefined);
    assert.deepEqual(
      yearsBetween(1965, 1963).map((d) => d.date),
      ['1963', '1964', '1965'],
    );
    assert.deepEqual(
      yearsBetween(1900, 1950).map((d) => d.date),
      ['1900', '1950'],
    );
    const dates: PartialDate[] = [];
    addDates(dates, yearsBetween(1963, 1965));
    addDates(dates, [{ date: '1964' }]);
    assert.deepEqual(dates, [
      { date: '1963', approximate: true },
      { date: '1964' },
      { date: '1965', approximate: true },
    ]);
  });

  it('finds files letter case aside and streams the children of the root', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kit-'));
    try {
      await writeFile(
        path.join(dir, 'SDN.XML'),
        '<?xml version="1.0"?><a:list xmlns:a="x"><a:e n="1">one</a:e><e>two</e></a:list>',
      );
      await writeFile(path.join(dir, 'broken.xml'), '<list><e>one</e>');
      const files = await readListDir(dir);
      assert.equal(files.named('sdn.xml'), path.join(dir, 'SDN.XML'));
      assert.deepEqual(files.matching(/\.xml$/), [path.join(dir, 'SDN.XML'), path.join(dir, 'broken.xml')]);
      const seen: string[] = [];
      await streamXmlChildren(path.join(dir, 'SDN.XML'), {
        child: (n) => seen.push(`${n.name}:${n.attrs.n ?? ''}:${n.text}`),
      });
      assert.deepEqual(seen, ['e:1:one', 'e::two']);
      await assert.rejects(
        streamXmlChildren(path.join(dir, 'broken.xml'), { child: () => undefined }),
        /broken\.xml: malformed XML, not well-formed/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
