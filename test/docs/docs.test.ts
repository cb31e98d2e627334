/**
 * The documentation cannot drift (issue 26): the generated tables equal what `npm run docs` renders
 * from the configuration schema and the benchmark result files; the README is a front door of at most
 * 20 KB that links every page of docs/; the first-hour checks reject a session that went wrong.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  configurationSection,
  figuresTable,
  readResults,
  renderDocs,
  resultsSection,
} from '../../bench/docs-render.js';
import { CONFIG_VARIABLES, type ConfigVariable, loadConfig } from '../../src/infra/config.js';

const ROOT = process.cwd();
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/**
 * Pages the README links that other branches add (issue 26's coordinator: they exist once merged).
 * The one place a link may point at a page not in docs/ yet.
 */
describe('generated documentation', () => {
  it('README.md, docs/benchmarks.md and docs/configuration.md equal what npm run docs renders', () => {
    for (const r of renderDocs(ROOT)) assert.equal(r.current, r.text, `${r.file} is stale: run npm run docs`);
  });

  it('a changed figure or setting renders differently (the check above can fail)', () => {
    const results = readResults(ROOT);
    assert.ok(results.length > 0, 'bench/results holds result files');
    const changed = results.map((r) => ({ ...r, rows: r.rows.map((row) => ({ ...row, value: `${row.value}0` })) }));
    assert.notEqual(figuresTable(changed), figuresTable(results));
    assert.notEqual(resultsSection(changed), resultsSection(results));
    const port = (CONFIG_VARIABLES as readonly ConfigVariable[]).map((v) =>
      v.name === 'PORT' ? { ...v, default: 9090 } : v,
    );
    assert.notEqual(configurationSection(port), configurationSection());
  });

  it('the configuration page names every variable, and the schema defaults are what loadConfig uses', () => {
    const page = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
    for (const v of CONFIG_VARIABLES) assert.ok(page.includes(`| \`${v.name}\` |`), `${v.name} on the page`);
    const config = loadConfig({});
    const spec = (name: string) =>
      (CONFIG_VARIABLES as readonly ConfigVariable[]).find((v) => v.name === name)?.default;
    assert.equal(config.http.port, spec('PORT'));
    assert.equal(config.http.rateLimitPerMinute, spec('RATE_LIMIT_PER_MINUTE'));
    assert.equal(config.matching.floor, spec('MATCH_FLOOR'));
    assert.equal(config.lists.syncTime, spec('LIST_SYNC_TIME'));
    assert.equal(config.webhooks.timeoutMs, 10_000);
    assert.throws(() => loadConfig({ PORT: '70000' }), /PORT must be between 0 and 65535/);
  });
});

describe('the README is a front door', () => {
  it('is at most 20 KB', () => {
    assert.ok(Buffer.byteLength(README) <= 20_000, `README.md is ${Buffer.byteLength(README)} bytes`);
  });

  it('links every page of docs/, and every docs/ link resolves (or is a page of another branch)', () => {
    const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    for (const page of pages) assert.ok(README.includes(`(docs/${page})`), `README links docs/${page}`);
    const linked = [...README.matchAll(/\]\(docs\/([^)#]+)/g)].map((m) => m[1] as string);
    for (const page of linked)
      assert.ok(existsSync(join(ROOT, 'docs', page)), `docs/${page} linked from the README does not exist`);
  });

  it('links between docs/ pages resolve', () => {
    for (const page of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, 'docs', page), 'utf8');
      for (const m of text.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)/g)) {
        const target = m[1] as string;
        assert.ok(existsSync(join(ROOT, 'docs', target)), `docs/${page} links ${target}, which does not exist`);
      }
    }
  });

  it('the first-hour check rejects a session whose answers are wrong', async () => {
    const { checkSession, readmeBlock } = (await import(pathToFileURL(join(ROOT, 'scripts/first-hour.mjs')).href)) as {
      checkSession: (out: string) => string[];
      readmeBlock: (readme: string, name: string) => string;
    };
    assert.match(readmeBlock(README, 'start'), /npm start/);
    assert.match(readmeBlock(README, 'session'), /Vladimir Putin/);
    const wrong = [
      '{"success":true,"data":{"riskScore":0,"riskLevel":"low","matches":[]}}',
      '{"success":false,"error":{"code":"BAD_REQUEST","message":"x"}}',
    ].join('\n');
    const problems = checkSession(wrong);
    assert.ok(problems.some((p) => p.includes('Vladimir Putin')));
    assert.ok(problems.some((p) => p.includes('VALIDATION_ERROR')));
    assert.ok(problems.some((p) => p.includes('UNAUTHORIZED')));
  });
});
