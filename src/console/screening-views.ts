import { type Html, html } from './html.js';
import { riskLevel, when } from './layout.js';

/** How a stored screening reads in the console: the search, the risk, each match explained, the lists it ran against. */

interface Effect {
  effect: number;
  detail: string;
}

export interface MatchView {
  dataset: string;
  datasetLabel: string;
  matchScore: number;
  entity: {
    id: string;
    name: string;
    entityType: string;
    country?: string;
    programs?: string[];
    listingDate?: string;
    reason?: string;
    derivation?: { percentage?: number; ownerName: string; chain: { lei: string; name: string }[]; asOf: string };
  };
  explanation?: {
    matchedName?: string;
    nameKind?: string;
    nameScore?: number;
    summary?: string;
    corroboration?: Record<string, Effect | undefined>;
  };
  listings?: {
    dataset: string;
    datasetLabel: string;
    entityId: string;
    name: string;
    programs: string[];
    listingDate?: string;
    matchScore?: number;
  }[];
}

export interface ScreeningView {
  id: string;
  query: string;
  entityType: string | null;
  country: string | null;
  birthDate: string | null;
  identifiers?: { type: string; value: string }[];
  /** Identifiers screened as written although their check fails (POST /screen's `warnings`). */
  warnings?: { field: string; code: string; message: string }[];
  riskScore: number;
  riskLevel: string;
  confidence: number;
  matchDetails: unknown[];
  listVersions: { source: string; version: string; publishedAt: string | null; records: number }[];
  isMonitored: boolean;
  timestamp: string;
  /** The screening profile it ran under (docs/profiles.md); null before profiles existed. */
  profile?: { id: string | null; version: number } | null;
}

const FIELD_NAMES: Record<string, string> = {
  birthDate: 'Birth date',
  country: 'Country',
  entityType: 'Type',
  numbers: 'Numbers',
};

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/** The facts of a listed party: score, id, programs, listing date and reason. */
function listedFacts(match: MatchView): Html {
  const entity = match.entity;
  return html`<dl class="facts">
    <dt>Match score</dt>
    <dd>${match.matchScore}</dd>
    <dt>Listed id</dt>
    <dd><code>${entity.id}</code></dd>
    ${
      entity.programs?.length
        ? html`<dt>Programs</dt>
            <dd>${entity.programs.join(', ')}</dd>`
        : ''
    }
    ${
      entity.listingDate
        ? html`<dt>Listed on</dt>
            <dd>${entity.listingDate}</dd>`
        : ''
    }
    ${
      entity.reason
        ? html`<dt>Reason</dt>
            <dd>${entity.reason}</dd>`
        : ''
    }
  </dl>`;
}

/** Why it matched: the explanation, the matched name, each corroborating field, the ownership chain. */
function matchReasons(match: MatchView): Html {
  const explanation = match.explanation;
  const effects = Object.entries(explanation?.corroboration ?? {}).filter(
    (entry): entry is [string, Effect] => !!entry[1],
  );
  const derivation = match.entity.derivation;
  return html`${explanation?.summary ? html`<p><strong>Explanation:</strong> ${explanation.summary}</p>` : ''}
  ${
    explanation?.matchedName
      ? html`<p class="muted">
          Matched name "${explanation.matchedName}" (${explanation.nameKind ?? 'name'}), name similarity
          ${explanation.nameScore ?? ''}.
        </p>`
      : ''
  }
  ${
    effects.length
      ? html`<ul>
          ${effects.map(([name, effect]) => html`<li>${FIELD_NAMES[name] ?? name}: ${effect.detail} (${signed(effect.effect)})</li>`)}
        </ul>`
      : ''
  }
  ${
    derivation
      ? html`<p>
          Owned ${derivation.percentage ?? ''}% by blocked parties; chain from ${derivation.ownerName}:
          ${derivation.chain.map((link) => link.name).join(' → ')} (ownership data of ${derivation.asOf}).
        </p>`
      : ''
  }`;
}

/** Every list that carries the same party (with groupByCluster). */
function listingsTable(match: MatchView): Html | '' {
  if (!match.listings?.length) return '';
  return html`<table>
    <caption class="muted">
      Listings of this party
    </caption>
    <thead>
      <tr>
        <th scope="col">List</th>
        <th scope="col">Name as listed</th>
        <th scope="col">Id</th>
        <th scope="col">Programs</th>
        <th scope="col">Listed on</th>
      </tr>
    </thead>
    <tbody>
      ${match.listings.map(
        (listing) =>
          html`<tr>
            <td>${listing.datasetLabel}</td>
            <td>${listing.name}</td>
            <td><code>${listing.entityId}</code></td>
            <td>${listing.programs.join(', ')}</td>
            <td>${listing.listingDate ?? ''}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** One match: who is listed, why it matched, and every list that carries the same party. */
export function matchCard(match: MatchView, index: number, actions?: Html): Html {
  return html`<section class="match" aria-labelledby="match-${index}">
    <h3 id="match-${index}">
      ${index + 1}. ${match.entity.name} <span class="muted">(${match.entity.entityType}, ${match.datasetLabel})</span>
    </h3>
    ${listedFacts(match)} ${matchReasons(match)} ${listingsTable(match)} ${actions}
  </section>`;
}

/** The whole record; `actions` adds controls under each match (the decision buttons will go there). */
export function screeningDetail(
  s: ScreeningView,
  options: { monitorForm?: Html; actions?: (m: MatchView, i: number) => Html } = {},
): Html {
  const matches = s.matchDetails as MatchView[];
  const warnings = s.warnings?.length
    ? html`<div class="notice warning" role="note">
        <strong>Screened with ${s.warnings.length === 1 ? 'a warning' : `${s.warnings.length} warnings`}:</strong>
        <ul>
          ${s.warnings.map((w) => html`<li><code>${w.code}</code> ${w.field}: ${w.message}</li>`)}
        </ul>
      </div>`
    : '';
  return html`${warnings}
    <dl class="facts">
      <dt>Name</dt>
      <dd>${s.query}</dd>
      <dt>Type</dt>
      <dd>${s.entityType ?? 'any'}</dd>
      <dt>Country</dt>
      <dd>${s.country ?? 'any'}</dd>
      <dt>Birth date</dt>
      <dd>${s.birthDate ?? 'not given'}</dd>
      <dt>Identifiers</dt>
      <dd>${s.identifiers?.length ? s.identifiers.map((i) => `${i.type} ${i.value}`).join('; ') : 'none'}</dd>
      <dt>Risk</dt>
      <dd>${riskLevel(s.riskLevel, s.riskScore)}</dd>
      <dt>Confidence</dt>
      <dd>${s.confidence}</dd>
      <dt>Screened</dt>
      <dd>${when(s.timestamp)}</dd>
      <dt>Monitored</dt>
      <dd>${s.isMonitored ? 'yes' : 'no'}</dd>
      <dt>Screening id</dt>
      <dd><code>${s.id}</code></dd>
    </dl>
    ${options.monitorForm}
    <h2>Matches (${matches.length})</h2>
    ${matches.length === 0 ? html`<p>No listed party matched at or above the reporting floor.</p>` : matches.map((m, i) => matchCard(m, i, options.actions?.(m, i)))}
    ${
      s.profile
        ? html`<p id="screening-profile">
            Screening profile: ${s.profile.id === null ? 'built-in default' : html`<code>${s.profile.id}</code>`},
            version ${String(s.profile.version)}
          </p>`
        : ''
    }
    <h2>List versions screened against</h2>
    <table>
      <thead>
        <tr>
          <th scope="col">Source</th>
          <th scope="col">Version</th>
          <th scope="col">Published</th>
          <th scope="col">Records</th>
        </tr>
      </thead>
      <tbody>
        ${s.listVersions.map(
          (v) =>
            html`<tr>
              <td>${v.source}</td>
              <td><code>${v.version}</code></td>
              <td>${v.publishedAt ?? 'unknown'}</td>
              <td>${v.records}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}
