import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { inlineScreener } from '../../src/start/matching-pool.js';
import { screenerEngine } from '../../src/validation/engine.js';
import { buildReport, signReport, verifyReport } from '../../src/validation/report.js';
import { renderReportHtml } from '../../src/validation/report-html.js';
import type { RunSizes } from '../../src/validation/figures.js';
import { runValidation } from '../../src/validation/run-validation.js';
import { generateSigningKey, parseSigningKey } from '../../src/validation/signing.js';
import { defaultThresholds } from '../../src/validation/thresholds.js';
import { negativeNames } from '../../src/validation/negatives.js';
import { scriptOf } from '../../src/validation/scripts.js';

/**
 * A validation run on a small hand-built list (issue 31): the figures a reader can count by hand, the
 * recall drop of a deliberately weakened engine (an absurd medium cut-off), and the signature.
 */

const record = (r: Partial<ListRecord> & Pick<ListRecord, 'source' | 'id' | 'entityType' | 'name'>): ListRecord => ({
  ...emptyRecord(r.source, r.id, r.entityType, r.name),
  ...r,
});

/** Five names of four listings on two lists; one vessel with a valid IMO number (918762, check digit 9). */
const RECORDS: ListRecord[] = [
  record({
    source: 'us_ofac',
    id: '1001',
    entityType: 'person',
    name: 'KARIMOV, Rustam Alievich',
    aliases: [{ name: 'Rustam Karimov', quality: 'strong', kind: 'aka' }],
  }),
  record({ source: 'us_ofac', id: '1002', entityType: 'organization', name: 'ZARYA SHIPPING LLC' }),
  record({ source: 'un_csl', id: 'QDi.1', entityType: 'person', name: 'Abdulrahman Yusuf HADDAWI' }),
  record({
    source: 'un_csl',
    id: 'QDe.9',
    entityType: 'vessel',
    name: 'OCEAN PRIDE',
    identifiers: [{ type: 'imo', value: 'IMO 9187629', kind: 'imo', normalized: '9187629', valid: true }],
  }),
];

const SIZES: Partial<RunSizes> = {
  perturbationsPerKind: 5,
  negatives: 28,
  randomIdentifiersPerType: 5,
  latencySamples: 20,
};

async function run(medium: number, records: readonly ListRecord[] = RECORDS) {
  const engine = screenerEngine(await inlineScreener([...records]), {});
  return runValidation(
    {
      records,
      quick: false,
      seed: 7,
      cutoffs: { medium, high: Math.max(80, medium) },
      floor: 50,
      sizes: SIZES,
    },
    { engine },
  );
}

describe('validation run on a hand-built list', () => {
  it('gives the same figures on a second run over the same lists, which reuses the reading of them', async () => {
    const records = [...RECORDS];
    const [first, second] = [await run(50, records), await run(50, records)];
    const { latency: _l1, durationMs: _d1, ...firstFigures } = first;
    const { latency: _l2, durationMs: _d2, ...secondFigures } = second;
    assert.deepEqual(secondFigures, firstFigures);
    assert.equal(firstFigures.identifiers.listed.tried, 1);
    // Another array of the same records is read afresh, and reads alike.
    const { latency: _l3, durationMs: _d3, ...copyFigures } = await run(50, [...RECORDS]);
    assert.deepEqual(copyFigures, firstFigures);
  });

  it('counts every listed name and alias once, per source and per entity type, and finds each', async () => {
    const f = await run(50);
    assert.equal(f.selfScreen.names, 5);
    assert.deepEqual(
      f.selfScreen.bySource.map((r) => [r.key, r.names]),
      [
        ['un_csl', 2],
        ['us_ofac', 3],
      ],
    );
    assert.deepEqual(
      f.selfScreen.byType.map((r) => [r.key, r.names]),
      [
        ['organization', 1],
        ['person', 3],
        ['vessel', 1],
      ],
    );
    // Each name is its own listing's name exactly: all five find it, as the top party.
    assert.equal(f.selfScreen.found, 5, JSON.stringify(f.selfScreen.misses));
    assert.equal(f.selfScreen.top, 5, JSON.stringify(f.selfScreen.notTop));
    assert.deepEqual(f.selfScreen.misses, []);
  });

  it('perturbs only where a kind applies, and counts the negatives per script as drawn', async () => {
    const f = await run(50);
    const n = Object.fromEntries(f.perturbations.map((k) => [k.kind, k.n]));
    // No listed person has four name parts: nothing to drop from the middle.
    assert.equal(n['dropped middle part'], 0);
    // One organization has a legal form (LLC); it is drawn five times.
    assert.equal(n['legal-form variant'], 5);
    assert.equal(n['swapped parts'], 5);
    assert.equal(n['Cyrillic and back'], 5);
    // 28 names, one per language table: 12 Latin, 2 Arabic script (Arabic, Persian), 3 Cyrillic, 3 Indic...
    const scripts = Object.fromEntries(f.negatives.byScript.map((s) => [s.script, s.n]));
    assert.deepEqual(scripts, {
      Latin: 12,
      'Arabic script': 2,
      Han: 1,
      Hangul: 1,
      kana: 1,
      Cyrillic: 3,
      Greek: 1,
      Hebrew: 1,
      Indic: 3,
      Thai: 1,
      Armenian: 1,
      Georgian: 1,
    });
    assert.equal(f.negatives.total.n, 28);
    assert.equal(f.negatives.locales, 28);
    // The one printed identifier finds its vessel; 20 random valid ones (5 of each type) find nothing.
    assert.equal(f.identifiers.listed.tried, 1);
    assert.equal(f.identifiers.listed.found, 1);
    assert.equal(f.identifiers.random.tried, 20);
    assert.equal(f.identifiers.random.hits, 0);
    assert.equal(f.latency.samples, 20);
    assert.ok(f.latency.p99Ms >= f.latency.p50Ms);
  });

  it('draws the same negatives from the same seed, in their own scripts', () => {
    const a = negativeNames(300, 11);
    assert.deepEqual(a, negativeNames(300, 11));
    assert.notDeepEqual(a, negativeNames(300, 12));
    assert.ok(a.some((x) => scriptOf(x.name) === 'Georgian'));
    assert.ok(a.some((x) => scriptOf(x.name) === 'kana'));
  });

  it('shows the recall drop of a weakened engine (medium cut-off 99) in the report', async () => {
    const good = await run(50);
    const weak = await run(99);
    const recall = (f: typeof good, kind: string) => f.perturbations.find((k) => k.kind === kind)!.medium;
    assert.ok(weak.selfScreen.found <= good.selfScreen.found);
    const perturbedGood = good.perturbations.reduce((s, k) => s + k.medium, 0);
    const perturbedWeak = weak.perturbations.reduce((s, k) => s + k.medium, 0);
    assert.ok(perturbedWeak < perturbedGood, `weak ${perturbedWeak} < good ${perturbedGood}`);
    assert.ok(
      recall(weak, 'typo') < recall(good, 'typo') ||
        recall(weak, 'Cyrillic and back') < recall(good, 'Cyrillic and back'),
    );
    const context = {
      runId: 'val_test',
      organization: null,
      lists: [],
      engineVersion: 'test',
      profile: { id: 'default', version: 0 },
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:01:00.000Z',
    };
    const goodReport = buildReport(good, context, defaultThresholds());
    const weakReport = buildReport(weak, context, defaultThresholds());
    const row = (r: typeof goodReport, key: string) => r.summary.find((s) => s.key === key)!;
    assert.ok(row(weakReport, 'perturbationMedium:typo').value <= row(goodReport, 'perturbationMedium:typo').value);
    assert.equal(weakReport.passed, false);
    assert.equal(weakReport.context.cutoffs.medium, 99);
    const html = renderReportHtml(weakReport);
    assert.match(html, /NOT met/);
  });

  it('signs the report; a one-byte change to either file fails verification', async () => {
    const f = await run(50);
    const pair = generateSigningKey();
    const report = buildReport(
      f,
      {
        runId: 'val_sig',
        organization: { slug: 'acme', name: 'Acme Bank' },
        lists: [],
        engineVersion: 'test',
        profile: { id: 'default', version: 0 },
        startedAt: '2026-01-01T00:00:00.000Z',
        finishedAt: '2026-01-01T00:01:00.000Z',
      },
      defaultThresholds(),
    );
    const files = await signReport(report, parseSigningKey(pair.privateKey), renderReportHtml);
    const ok = verifyReport(files.json, { html: files.html, expectedKeyId: pair.keyId });
    assert.equal(ok.valid, true, ok.notes.join('; '));
    assert.equal(ok.keyId, pair.keyId);
    // One digit of a figure changed in report.json.
    const at = files.json.indexOf('"found": 5');
    assert.ok(at > 0);
    const changed = files.json.slice(0, at) + '"found": 4' + files.json.slice(at + 10);
    assert.equal(changed.length, files.json.length);
    const bad = verifyReport(changed, { html: files.html });
    assert.equal(bad.valid, false);
    assert.match(bad.notes.join(' '), /changed after it was signed/);
    // One byte of report.html changed.
    const i = files.html.indexOf('Acme Bank');
    const html = files.html.slice(0, i) + 'X' + files.html.slice(i + 1);
    assert.equal(verifyReport(files.json, { html }).valid, false);
    // The right signature by another key than the expected one.
    assert.equal(verifyReport(files.json, { expectedKeyId: generateSigningKey().keyId }).valid, false);
    // Re-indenting the JSON keeps it valid (the signature covers the canonical form).
    assert.equal(verifyReport(JSON.stringify(JSON.parse(files.json))).valid, true);
  });
});
