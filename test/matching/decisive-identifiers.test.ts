/**
 * Decisive identifiers (issue 27): a number that names one party in the world (LEI, BIC, IMO of a ship
 * or a company, MMSI, a wallet, a listed aircraft's serial) finds its listing at high whatever the
 * name, explained with both names and the name score; numbers unique only within a country decide
 * only with the same issuing country. Then the same on OFAC's real SDN.CSV, its numbers found from the
 * raw file by regular expressions, screened as the API takes them.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { imoCheckDigit } from '../../src/identifiers/index.js';
import { addIdentifier } from '../../src/lists/adapters/kit/record.js';
import { usOfacAdapter } from '../../src/lists/adapters/us-ofac.js';
import { emptyRecord, type EntityType, type Identifier, type ListRecord } from '../../src/lists/model.js';
import { MatchingIndex } from '../../src/matching/index.js';
import type { MatchQuery, QueryIdentifier } from '../../src/matching/types.js';
import {
  type IdentifierWarning,
  matchIdentifiers,
  validateIdentifiers,
} from '../../src/screening/identifiers-input.js';

function listed(source: ListRecord['source'], id: string, type: EntityType, name: string, ids: Identifier[]) {
  const r = emptyRecord(source, id, type, name);
  for (const i of ids) addIdentifier(r, i);
  return r;
}
const shipImo = (six: string): string => six + String(imoCheckDigit(six, 'ship'));
const companyImo = (six: string): string => six + String(imoCheckDigit(six, 'company'));

const LEI = '5493001KJTIIGC8Y1R12';
const COMPANY_IMO = companyImo('534288');
const records = [
  listed('us_ofac', 'c1', 'organization', 'CHONGCHONGANG SHIPPING COMPANY LIMITED', [
    { type: 'imo', value: `IMO ${COMPANY_IMO}` },
  ]),
  listed('us_ofac', 'b1', 'organization', 'Example Commerce Bank', [
    { type: 'swift', value: 'EXCBRUMM' },
    { type: 'lei', value: LEI },
  ]),
  listed('uk_csl', 'v1', 'vessel', 'SEA DRAGON', [{ type: 'mmsi', value: '422123456' }]),
  listed('us_ofac', 'w1', 'person', 'Satoshi TESTNAME', [
    { type: 'crypto_address', value: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', currency: 'XBT' },
  ]),
  // One address listed once per currency, as OFAC lists Ethereum addresses for ETH, USDT and USDC.
  listed('us_ofac', 'w2', 'organization', 'Example Exchange', [
    { type: 'crypto_address', value: '0x983a81ca6FB1e441266D2FbcB7D8E530AC2E05A2', currency: 'ETH' },
    { type: 'crypto_address', value: '0x983a81ca6FB1e441266D2FbcB7D8E530AC2E05A2', currency: 'USDT' },
  ]),
  // A company listing its fleet's ship numbers: a ship of the fleet, not the company itself.
  listed('uk_csl', 'o9', 'organization', 'Fleet Owner Maritime Company', [
    { type: 'imo', value: shipImo('901111') },
    { type: 'imo', value: shipImo('902222') },
  ]),
  // An airline printing an airframe's serial: the serial is unique only with the aircraft's type.
  listed('us_ofac', 'l1', 'organization', 'Example Air Cargo', [{ type: 'aircraft_serial', value: 'MSN 1234' }]),
  listed('uk_csl', 'p1', 'person', 'Ivan Sergeyevich PETROV', [
    { type: 'passport', value: 'AB 12-3456', country: 'RU' },
  ]),
  ...Array.from({ length: 200 }, (_, k) => emptyRecord('eu_csl', `f${k}`, 'person', `Filler${k} Person${k % 17}`)),
];
const idx = MatchingIndex.build(records);
const UNRELATED = 'Meridian Blue Holdings';

function screenTop(identifiers: QueryIdentifier[], entityType?: EntityType) {
  const o = idx.screen({ name: UNRELATED, ...(entityType ? { entityType } : {}), identifiers });
  return { outcome: o, match: o.matches[0] };
}

describe('decisive identifiers under an unrelated name', () => {
  it('LEI, BIC (a branch too), company IMO, MMSI and a wallet find their listing at high, explained', () => {
    const cases: [QueryIdentifier, EntityType | undefined, string][] = [
      [{ type: 'lei', value: LEI }, 'organization', 'us_ofac:b1'],
      [{ type: 'bic', value: 'EXCBRUMM123' }, 'organization', 'us_ofac:b1'],
      [{ type: 'imo', value: COMPANY_IMO }, 'organization', 'us_ofac:c1'],
      [{ type: 'mmsi', value: '422123456' }, undefined, 'uk_csl:v1'],
      [
        { type: 'crypto_wallet', value: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', currency: 'BTC' },
        undefined,
        'us_ofac:w1',
      ],
      [{ type: 'crypto_wallet', value: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' }, undefined, 'us_ofac:w1'],
      [
        { type: 'crypto_wallet', value: '0x983a81ca6fb1e441266d2fbcb7d8e530ac2e05a2', currency: 'USDT' },
        'organization',
        'us_ofac:w2',
      ],
    ];
    for (const [id, entityType, want] of cases) {
      const { outcome, match } = screenTop([id], entityType);
      const what = JSON.stringify(id);
      assert.equal(match?.entity.id, want, what);
      assert.equal(outcome.riskLevel, 'high', what);
      assert.ok(outcome.confidence >= 80, `${what}: ${outcome.confidence}`);
      const effect = match!.explanation.corroboration.identifier!;
      assert.equal(effect.outcome, 'match', what);
      assert.equal(effect.decisive, true, what);
      assert.equal(effect.nameScore, 0, what);
    }
    const { match } = screenTop([{ type: 'lei', value: `LEI ${LEI.toLowerCase()}` }], 'organization');
    assert.match(
      match!.explanation.summary,
      new RegExp(
        `^LEI ${LEI} is the listed entity's LEI \\(printed "${LEI}"\\); the name differs: screened as "${UNRELATED}", listed as "Example Commerce Bank" \\(the name alone scores 0; an LEI names one legal entity`,
      ),
    );
  });

  it('what is not decisive stays a lead for review (medium)', () => {
    const cases: [QueryIdentifier, string][] = [
      // Another currency than the listed one: the same string on another chain is another question.
      [{ type: 'crypto_wallet', value: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', currency: 'LTC' }, 'us_ofac:w1'],
      [{ type: 'imo', value: shipImo('902222') }, 'uk_csl:o9'],
      [{ type: 'aircraft_serial', value: '1234' }, 'us_ofac:l1'],
      [{ type: 'passport', value: 'AB123456' }, 'uk_csl:p1'],
    ];
    for (const [id, want] of cases) {
      const { outcome, match } = screenTop([id]);
      assert.equal(match?.entity.id, want, JSON.stringify(id));
      assert.equal(outcome.riskLevel, 'medium', JSON.stringify(id));
      assert.equal(match!.explanation.corroboration.identifier!.decisive, undefined);
    }
  });

  it('a document number of the same issuing country decides; of no named country it does not', () => {
    const same = screenTop([{ type: 'passport', value: 'AB123456', country: 'RU' }]);
    assert.equal(same.match?.entity.id, 'uk_csl:p1');
    assert.equal(same.outcome.riskLevel, 'high');
    assert.match(same.match!.explanation.summary, /the same issuing country \(RU\)/);
  });

  it('a name that agrees keeps the wording of a compatible name', () => {
    const o = idx.screen({ name: 'Example Commerce Bank', identifiers: [{ type: 'lei', value: LEI }] });
    assert.equal(o.riskLevel, 'high');
    assert.match(o.matches[0]!.explanation.summary, /the name is compatible/);
  });
});

const DIR = path.resolve(process.cwd(), '../shared/data/lists/us_ofac');
const CSV = path.join(DIR, 'sdn.csv');
const skip = existsSync(CSV) ? false : `${CSV} absent (../shared/data/lists/us_ofac)`;

describe("OFAC's SDN.CSV: company IMO numbers, LEIs and BICs under an unrelated name", { skip }, () => {
  it('each finds its listing as the top match at high, as the API takes it', async () => {
    // The numbers as the raw file prints them, by SDN row: IMO numbers on listings that are not
    // vessels (companies and registered owners), LEIs and SWIFT/BIC codes.
    const rows = parseCsvSync(readFileSync(CSV, 'latin1'), {
      relax_column_count: true,
      relax_quotes: true,
    }) as string[][];
    const wanted: { id: string; type: 'imo' | 'lei' | 'bic'; value: string; entityType: EntityType }[] = [];
    for (const row of rows) {
      const [id, , kind, , , , , , , , , remarks = ''] = row;
      if (!id || !/^\d+$/.test(id)) continue;
      const entityType: EntityType =
        kind === 'individual'
          ? 'person'
          : kind === 'vessel'
            ? 'vessel'
            : kind === 'aircraft'
              ? 'aircraft'
              : 'organization';
      if (entityType !== 'vessel')
        for (const m of remarks.matchAll(/\bIMO (\d{7})\b/g))
          wanted.push({ id, type: 'imo', value: m[1]!, entityType });
      for (const m of remarks.matchAll(/Legal Entity Number ([0-9A-Z]+)/g))
        wanted.push({ id, type: 'lei', value: m[1]!, entityType });
      for (const m of remarks.matchAll(/SWIFT\/BIC ([0-9A-Z]+)/g))
        wanted.push({ id, type: 'bic', value: m[1]!, entityType });
    }
    const { records: sdn } = await usOfacAdapter.parse(DIR);
    const index = MatchingIndex.build(sdn);
    const counts = { imo: 0, lei: 0, bic: 0 };
    const refused: string[] = [];
    const misses: string[] = [];
    let warned = 0;
    for (const w of wanted) {
      const warnings: IdentifierWarning[] = [];
      let ids: QueryIdentifier[];
      try {
        ids = matchIdentifiers(
          validateIdentifiers([{ type: w.type, value: w.value }], w.entityType, 'identifiers', warnings),
        );
      } catch (error) {
        // An LEI of 19 characters cannot be an LEI: the API refuses it, and it is counted apart.
        refused.push(`${w.id} ${w.type} ${w.value}: ${(error as Error).message}`);
        continue;
      }
      if (warnings.length) warned++;
      counts[w.type]++;
      const query: MatchQuery = { name: UNRELATED, entityType: w.entityType, identifiers: ids };
      const o = index.screen(query, { maxMatches: 50 });
      const best = o.matches[0]?.matchScore ?? 0;
      const ok = best >= 80 && o.matches.some((m) => m.entity.id === `us_ofac:${w.id}` && m.matchScore === best);
      if (!ok) misses.push(`${w.id} ${w.type} ${w.value} -> ${o.matches[0]?.entity.id ?? 'nothing'} ${best}`);
    }
    assert.deepEqual(misses, []);
    // The counts on this file: 122 company IMO numbers, 74 well-formed LEIs, 162 BICs.
    assert.ok(counts.imo >= 100, JSON.stringify(counts));
    assert.ok(counts.lei >= 70, JSON.stringify(counts));
    assert.ok(counts.bic >= 150, JSON.stringify(counts));
    assert.ok(
      refused.every((r) => / lei /.test(r)),
      refused.join('\n'),
    );
    assert.ok(warned < counts.lei, `${warned} warned`);
  });
});
