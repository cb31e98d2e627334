import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { deriveBlocked, loadOwnershipDir, type OwnershipData } from '../../src/ownership/index.js';

const FIXTURES = path.resolve(process.cwd(), 'test/fixtures/ownership');

/** A us_ofac record carrying an LEI the way list adapters write it ("Legal Entity Number"). */
function listed(
  id: string,
  name: string,
  lei: string | undefined,
  programs: string[] = ['RUSSIA-EO14024'],
): ListRecord {
  const r = emptyRecord('us_ofac', id, lei ? 'organization' : 'person', name);
  if (lei) r.identifiers.push({ type: 'lei', value: lei, label: 'Legal Entity Number' });
  r.programs = programs;
  return r;
}

async function load(name: string): Promise<OwnershipData> {
  return loadOwnershipDir(path.join(FIXTURES, name));
}

function byId(records: ListRecord[]): Map<string, ListRecord> {
  return new Map(records.map((r) => [r.id, r]));
}

test('one owner at exactly 50% blocks; 49.99% does not', async () => {
  const ownership = await load('threshold');
  const derived = byId(
    deriveBlocked({ listed: [listed('101', 'LISTED HOLDING LTD', '5493THRLISTED0000044')], ownership }),
  );
  const fifty = derived.get('5493THRFIFTY00000059');
  assert.ok(fifty, '50% stake must block');
  assert.equal(derived.has('5493THRBELOW00000044'), false, '49.99% must not block');
  assert.equal(derived.size, 1);
  assert.equal(fifty.source, 'us_ofac_50');
  assert.equal(fifty.entityType, 'organization');
  assert.equal(fifty.name, 'Fifty Percent Trading LLC');
  assert.deepEqual(
    fifty.aliases.map((a) => [a.name, a.kind]),
    [['Fifty Trading FZE', 'fka']],
  );
  assert.deepEqual(fifty.identifiers, [{ type: 'lei', value: '5493THRFIFTY00000059' }]);
  assert.deepEqual(fifty.addresses, [{ country: 'AE' }]);
  assert.deepEqual(fifty.programs, ['RUSSIA-EO14024']);
  assert.equal(fifty.derivation?.rule, 'ofac_50_percent');
  assert.equal(fifty.derivation?.percentage, 50);
  assert.equal(fifty.derivation?.ownerEntityId, 'us_ofac:101');
  assert.equal(fifty.derivation?.ownerName, 'LISTED HOLDING LTD');
  assert.deepEqual(
    fifty.derivation?.chain.map((l) => l.lei),
    ['5493THRLISTED0000044', '5493THRFIFTY00000059'],
  );
  assert.deepEqual(fifty.derivation?.contributors, [
    { ownerName: 'LISTED HOLDING LTD', percentage: 50, ownerEntityId: 'us_ofac:101', ownerLei: '5493THRLISTED0000044' },
  ]);
  assert.equal(fifty.derivation?.asOf, '2024-03-01');
  assert.match(fifty.reason ?? '', /Owned 50% by OFAC-listed LISTED HOLDING LTD \(us_ofac:101\)/);
});

test('without a listed owner nothing is derived (the LEI alone does not block)', async () => {
  const ownership = await load('threshold');
  assert.deepEqual(deriveBlocked({ listed: [listed('101', 'OTHER', '5493AGGLISTA00000083')], ownership }), []);
  // A name equal to the LEI legal name is not a link: only identifiers are.
  assert.deepEqual(deriveBlocked({ listed: [listed('101', 'Listed Holding Ltd', undefined)], ownership }), []);
});

test('two blocked owners at 30% and 25% block in aggregate; sums are exact', async () => {
  const ownership = await load('aggregate');
  const owners = [
    listed('201', 'LISTED ALPHA BANK', '5493AGGLISTA00000083', ['RUSSIA-EO14024']),
    listed('202', 'LISTED BETA ENERGY', '5493AGGLISTB00000002', ['UKRAINE-EO13662']),
    listed('203', 'LISTED GAMMA METALS', '5493AGGLISTC00000018', ['BELARUS-EO14038']),
  ];
  const derived = byId(deriveBlocked({ listed: owners, ownership }));
  const target = derived.get('5493AGGTARGET0000072');
  assert.ok(target);
  assert.equal(target.derivation?.percentage, 55);
  assert.deepEqual(
    target.derivation?.contributors.map((c) => [c.ownerEntityId, c.percentage]),
    [
      ['us_ofac:201', 30],
      ['us_ofac:202', 25],
    ],
  );
  assert.deepEqual(target.programs, ['RUSSIA-EO14024', 'UKRAINE-EO13662']);
  // The head of the strongest chain is the larger holder.
  assert.equal(target.derivation?.ownerEntityId, 'us_ofac:201');
  assert.match(target.reason ?? '', /in aggregate/);
  // 30 + 19.99 = 49.99: not blocked.
  assert.equal(derived.has('5493AGGSHORT00000013'), false);
  // 16.63 + 17.5 + 15.87 is 49.99999999999999 in floating point but exactly 50.
  assert.equal(16.63 + 17.5 + 15.87 < 50, true, 'the float trap this case is built on');
  assert.equal(derived.get('5493AGGTHREE00000004')?.derivation?.percentage, 50);
});

test('a chain of three levels, each >= 50%, read from golden-copy JSON', async () => {
  const ownership = await load('chain-json');
  const derived = byId(
    deriveBlocked({ listed: [listed('301', 'LISTED CHAIN TOP OJSC', '5493CHNLISTED0000094')], ownership }),
  );
  assert.deepEqual([...derived.keys()].sort(), [
    '5493CHNONE0000000089',
    '5493CHNTHREE00000034',
    '5493CHNTWO0000000048',
  ]);
  const bottom = derived.get('5493CHNTHREE00000034')!;
  assert.deepEqual(bottom.derivation?.chain, [
    { lei: '5493CHNLISTED0000094', name: 'LISTED CHAIN TOP OJSC' },
    { lei: '5493CHNONE0000000089', name: 'Chain Level One Ltd' },
    { lei: '5493CHNTWO0000000048', name: 'Chain Level Two BV' },
    { lei: '5493CHNTHREE00000034', name: 'Chain Level Three LLC' },
  ]);
  assert.equal(bottom.derivation?.ownerEntityId, 'us_ofac:301');
  assert.equal(bottom.derivation?.percentage, 75);
  assert.deepEqual(
    bottom.derivation?.contributors.map((c) => c.ownerLei),
    ['5493CHNTWO0000000048'],
  );
  assert.equal(bottom.derivation?.contributors[0]?.ownerEntityId, undefined, 'a derived owner has no list entry');
  assert.deepEqual(
    derived.get('5493CHNONE0000000089')?.aliases.map((a) => [a.name, a.kind]),
    [['Chain One Holdings', 'aka']],
  );
  assert.match(
    bottom.reason ?? '',
    /Chain Level One Ltd \(60%\) -> Chain Level Two BV \(50%\) -> Chain Level Three LLC \(75%\)/,
  );
});

test('a blocked parent at 60% of a subsidiary that owns 50% of another blocks both', async () => {
  const ownership = await load('subsidiary');
  const derived = byId(
    deriveBlocked({ listed: [listed('401', 'LISTED PARENT GROUP PJSC', '5493SUBLISTED0000097')], ownership }),
  );
  assert.equal(derived.get('5493SUBMIDDLE0000050')?.derivation?.percentage, 60);
  const bottom = derived.get('5493SUBBOTTOM0000041');
  assert.ok(bottom);
  assert.equal(bottom.derivation?.percentage, 50);
  assert.deepEqual(
    bottom.derivation?.chain.map((l) => l.lei),
    ['5493SUBLISTED0000097', '5493SUBMIDDLE0000050', '5493SUBBOTTOM0000041'],
  );
  assert.equal(bottom.derivation?.ownerName, 'LISTED PARENT GROUP PJSC');
  assert.deepEqual(bottom.programs, ['RUSSIA-EO14024']);
});

test('cycles terminate; a cycle without a blocked owner stays unblocked', async () => {
  const ownership = await load('cycle');
  const derived = byId(
    deriveBlocked({ listed: [listed('501', 'LISTED CYCLE OWNER JSC', '5493CYCLISTED0000093')], ownership }),
  );
  assert.deepEqual([...derived.keys()].sort(), ['5493CYCPEE0000000043', '5493CYCQUE0000000063']);
  // Pee is held 50% by the listed owner and 40% by Que, which is blocked through Pee.
  assert.equal(derived.get('5493CYCPEE0000000043')?.derivation?.percentage, 90);
  assert.deepEqual(
    derived.get('5493CYCQUE0000000063')?.derivation?.chain.map((l) => l.lei),
    ['5493CYCLISTED0000093', '5493CYCPEE0000000043', '5493CYCQUE0000000063'],
  );
  assert.equal(derived.has('5493CYCXRAY000000088'), false);
  assert.equal(derived.has('5493CYCYANK000000030'), false);
});

test('stakes of unblocked owners and relationships without a direct percentage never count', async () => {
  const ownership = await load('not-counted');
  assert.deepEqual(ownership.counts.byKind, { stake: 3, no_percentage: 1, indirect: 1, not_ownership: 1, inactive: 1 });
  const derived = deriveBlocked({
    listed: [listed('601', 'LISTED SANCTIONED BANK', '5493NCLISTED00000091', ['IRAN'])],
    ownership,
  });
  // Mixed: 20% listed + 40% unlisted; Free's subsidiary is 100% unlisted; consolidation without a
  // percentage, an ultimate parent, an ended relationship and fund management are not stakes.
  assert.deepEqual(derived, []);
  // Listing the unlisted partner turns its stakes on.
  const both = byId(
    deriveBlocked({
      listed: [
        listed('601', 'LISTED SANCTIONED BANK', '5493NCLISTED00000091', ['IRAN']),
        listed('602', 'UNLISTED PARTNER AG', '5493NCFREE0000000033', ['SDGT']),
      ],
      ownership,
    }),
  );
  assert.deepEqual([...both.keys()].sort(), ['5493NCFREESUB0000032', '5493NCMIXED000000024']);
  assert.equal(both.get('5493NCMIXED000000024')?.derivation?.percentage, 60);
  assert.deepEqual(both.get('5493NCMIXED000000024')?.programs, ['IRAN', 'SDGT']);
});

test('an entity that is itself listed is not re-emitted', async () => {
  const ownership = await load('subsidiary');
  const derived = deriveBlocked({
    listed: [
      listed('401', 'LISTED PARENT GROUP PJSC', '5493SUBLISTED0000097'),
      listed('402', 'MIDDLE SUBSIDIARY GMBH', '5493SUBMIDDLE0000050'),
    ],
    ownership,
  });
  assert.deepEqual(
    derived.map((r) => r.id),
    ['5493SUBBOTTOM0000041'],
  );
  // The listed subsidiary is the nearest listed owner on the chain.
  assert.equal(derived[0]?.derivation?.ownerEntityId, 'us_ofac:402');
});

test('a later relationship record replaces an earlier one instead of adding to it', async () => {
  const ownership = await load('update');
  assert.equal(ownership.counts.superseded, 1);
  const stakes = [...ownership.stakes];
  assert.equal(stakes.length, 1);
  assert.equal(stakes[0]?.percentage, 40);
  assert.deepEqual(
    deriveBlocked({ listed: [listed('701', 'LISTED SELLER CORP', '5493UPDLISTED0000012')], ownership }),
    [],
  );
});

test('CSV stakes: owner_entity_id names a list entry directly (a person without LEI)', async () => {
  const ownership = await load('csv');
  assert.equal(ownership.warnings.length, 4, ownership.warnings.join('\n'));
  assert.ok(ownership.warnings.some((w) => /line 5: owner_lei "NOTANLEI"/.test(w)));
  assert.ok(ownership.warnings.some((w) => /line 6: percentage "120"/.test(w)));
  const person = listed('9001', 'EXAMPLE, Ivan', undefined);
  const corp = listed('9002', 'LISTED CORP WITH LEI JSC', undefined); // its LEI is known only from the CSV
  const derived = byId(deriveBlocked({ listed: [person, corp], ownership }));
  const yacht = derived.get('5493CSVOWNED00000061');
  assert.ok(yacht, 'the 50% row names us_ofac:9001 directly');
  assert.equal(yacht.derivation?.ownerEntityId, 'us_ofac:9001');
  assert.deepEqual(yacht.derivation?.chain, [
    { lei: '', name: 'EXAMPLE, Ivan' },
    { lei: '5493CSVOWNED00000061', name: 'Oligarch Owned Yachting Ltd' },
  ]);
  // The 30% row has no owner and was rejected, so it did not add up with the 50%.
  assert.equal(yacht.derivation?.percentage, 50);
  const sub = derived.get('5493CSVSUB0000000042');
  assert.equal(sub?.derivation?.ownerEntityId, 'us_ofac:9002');
  assert.equal(sub?.derivation?.chain[0]?.lei, '5493CSVCORP000000097');
  assert.equal(sub?.derivation?.percentage, 75.5);
  // Rows for us_ofac:9003 (120%) and us_ofac:9004 (10%, bad date kept) do not reach 50% on the subsidiary.
  assert.equal(derived.size, 2);
});
