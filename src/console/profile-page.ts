import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../infra/errors.js';
import {
  type BacktestReport,
  DEFAULT_SETTINGS,
  KNOBS,
  MISSING_POINTS_RANGE,
  PROFILE_SOURCES,
  type ProfileSettings,
  type ProfileView,
} from '../profiles/index.js';
import type { ConsoleDeps } from './console-deps.js';
import { html, type Html } from './html.js';
import { csrfField, notice, page, readOnly, when } from './layout.js';
import { allowed, callerContext, field, type FormBody, sessionOf } from './session.js';
import { settingsTabs } from './settings-pages.js';

/**
 * Settings > Screening profile (issue 29): each knob with its meaning, the active version and the
 * draft side by side, the draft form, the backtest's report, and activation (with a reason when a
 * confirmed match would drop; four-eyes approval by another admin). The organization's profile only;
 * per-key profiles are made with the API or the command line.
 */

function shown(settings: ProfileSettings, name: keyof ProfileSettings): string {
  const setting = settings[name];
  if (name === 'sources') return setting === null ? 'every source' : (setting as string[]).join(', ');
  if (typeof setting === 'object')
    return Object.keys(setting as object).length === 0 ? 'none' : JSON.stringify(setting);
  return String(setting);
}

function knobTable(active: ProfileSettings, draft: ProfileSettings | undefined): Html {
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Knob</th>
        <th scope="col">What it does</th>
        <th scope="col">Range (default)</th>
        <th scope="col">Active</th>
        ${draft ? html`<th scope="col">Draft</th>` : ''}
      </tr>
    </thead>
    <tbody>
      ${KNOBS.map(
        (k) =>
          html`<tr>
            <th scope="row"><code>${k.name}</code></th>
            <td>${k.meaning}</td>
            <td>${k.range} (${k.default})</td>
            <td>${shown(active, k.name)}</td>
            ${
              draft
                ? html`<td class="${shown(draft, k.name) !== shown(active, k.name) ? 'changed' : ''}">
                    ${shown(draft, k.name)}
                  </td>`
                : ''
            }
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The number knobs of the draft form, each with its range (profile-settings.ts). */
const NUMBER_FIELDS: readonly NumberField[] = [
  { name: 'mediumCutoff', label: 'Medium cut-off', min: 50, max: 99, step: '0.1' },
  { name: 'highCutoff', label: 'High cut-off', min: 51, max: 100, step: '0.1' },
  { name: 'birthDateToleranceYears', label: 'Birth-date tolerance (years)', min: 0, max: 10 },
  {
    name: 'missingBirthDatePoints',
    label: 'Missing birth date (points)',
    min: MISSING_POINTS_RANGE.min,
    max: MISSING_POINTS_RANGE.max,
    step: '0.1',
  },
  {
    name: 'missingCountryPoints',
    label: 'Missing country (points)',
    min: MISSING_POINTS_RANGE.min,
    max: MISSING_POINTS_RANGE.max,
    step: '0.1',
  },
];

interface NumberField {
  name: 'mediumCutoff' | 'highCutoff' | 'birthDateToleranceYears' | 'missingBirthDatePoints' | 'missingCountryPoints';
  label: string;
  min: number;
  max: number;
  step?: string;
}

function numberInput(field: NumberField, value: number): Html {
  const step = field.step ? html` step="${field.step}"` : '';
  return html`<label for="${field.name}"
    >${field.label}
    <input
      id="${field.name}"
      name="${field.name}"
      type="number"
      min="${String(field.min)}"
      max="${String(field.max)}"
      ${step}
      value="${String(value)}"
  /></label>`;
}

function draftForm(csrf: Html, s: ProfileSettings): Html {
  const checked = (on: boolean) => (on ? html` checked` : '');
  return html`<form method="post" action="/console/settings/profile/draft">
    ${csrf}
    <fieldset>
      <legend>Sources</legend>
      ${PROFILE_SOURCES.map(
        (src) =>
          html`<label
            ><input
              type="checkbox"
              name="sources"
              value="${src}"
              ${checked(s.sources === null || s.sources.includes(src))}
            />
            ${src}</label
          > `,
      )}
    </fieldset>
    <div class="row">${NUMBER_FIELDS.map((field) => numberInput(field, s[field.name]))}</div>
    <label
      ><input type="checkbox" name="weakAliases" value="on" ${checked(s.weakAliases)} /> Compare weak aliases</label
    >
    <label
      ><input type="checkbox" name="groupByCluster" value="on" ${checked(s.groupByCluster)} /> Group by cluster by
      default</label
    >
    <label for="sourceCutoffs"
      >Cut-offs per source (JSON, e.g. {"us_csl": {"medium": 60}})
      <input id="sourceCutoffs" name="sourceCutoffs" value="${JSON.stringify(s.sourceCutoffs)}"
    /></label>
    <label for="entityTypeCutoffs"
      >Cut-offs per entity type (JSON, e.g. {"vessel": {"medium": 70}})
      <input id="entityTypeCutoffs" name="entityTypeCutoffs" value="${JSON.stringify(s.entityTypeCutoffs)}"
    /></label>
    <p><button type="submit">Save draft</button></p>
  </form>`;
}

function levels(l: { low: number; medium: number; high: number }): string {
  return `high ${l.high}, medium ${l.medium}, low ${l.low}`;
}

function report(r: BacktestReport): Html {
  return html`<section aria-labelledby="backtest">
    <h3 id="backtest">Backtest</h3>
    <p>
      ${r.screenings} screenings from ${when(r.window.from)} to
      ${when(r.window.to)}${r.truncated ? ' (the oldest were left out)' : ''}, against the lists in force.
    </p>
    <ul>
      <li>Active profile: ${levels(r.alerts.current)}</li>
      <li>Draft: ${levels(r.alerts.draft)}</li>
      <li id="alerts-removed"><strong>${r.alerts.removed}</strong> alerts removed, ${r.alerts.added} added</li>
      <li id="confirmed-lost"><strong>${r.confirmedLost.total}</strong> confirmed matches would be lost</li>
      <li>${r.falsePositivesCleared.total} false positives would no longer be raised</li>
    </ul>
    ${
      r.confirmedLost.items.length > 0
        ? html`<h4>Confirmed matches the draft would lose</h4>
            <table>
              <thead>
                <tr>
                  <th scope="col">Listed entity</th>
                  <th scope="col">Screened name</th>
                  <th scope="col">Score now</th>
                  <th scope="col">Screening</th>
                </tr>
              </thead>
              <tbody>
                ${r.confirmedLost.items.map(
                  (m) =>
                    html`<tr class="lost">
                      <td>${m.entityName ?? m.entityId} <code>${m.entityId}</code></td>
                      <td>${m.query}</td>
                      <td>${m.currentScore === null ? '' : String(m.currentScore)}</td>
                      <td><a href="/console/screenings/${encodeURIComponent(m.screeningId)}">${m.screeningId}</a></td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : ''
    }
    ${
      r.levelChanges.items.length > 0
        ? html`<h4>Screenings whose level changes (${r.levelChanges.total})</h4>
            <table>
              <thead>
                <tr>
                  <th scope="col">Screened name</th>
                  <th scope="col">Now</th>
                  <th scope="col">Draft</th>
                </tr>
              </thead>
              <tbody>
                ${r.levelChanges.items.slice(0, 100).map(
                  (c) =>
                    html`<tr>
                      <td>${c.query}</td>
                      <td>${c.current.riskLevel} ${String(c.current.riskScore)}: ${c.current.explanation ?? ''}</td>
                      <td>${c.draft.riskLevel} ${String(c.draft.riskScore)}: ${c.draft.explanation ?? ''}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : ''
    }
  </section>`;
}

/** The draft's knobs from the form: unchecked boxes are off; every source checked is every source. */
function settingsFromForm(request: FastifyRequest): Record<string, unknown> {
  const body = (request.body ?? {}) as FormBody;
  const raw = body.sources;
  const sources = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
    (v): v is string => typeof v === 'string',
  );
  const num = (name: string) => {
    const text = field(request, name).trim();
    return text === '' ? undefined : Number(text);
  };
  const json = (name: string) => {
    const text = field(request, name).trim();
    if (text === '') return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new AppError('VALIDATION_ERROR', `settings.${name}: must be JSON, such as {"us_csl": {"medium": 60}}`, {
        field: `settings.${name}`,
      });
    }
  };
  return {
    sources: sources.length === PROFILE_SOURCES.length ? null : sources,
    mediumCutoff: num('mediumCutoff'),
    highCutoff: num('highCutoff'),
    birthDateToleranceYears: num('birthDateToleranceYears'),
    missingBirthDatePoints: num('missingBirthDatePoints'),
    missingCountryPoints: num('missingCountryPoints'),
    weakAliases: field(request, 'weakAliases') === 'on',
    groupByCluster: field(request, 'groupByCluster') === 'on',
    sourceCutoffs: json('sourceCutoffs'),
    entityTypeCutoffs: json('entityTypeCutoffs'),
  };
}

export function profilePage(app: FastifyInstance, deps: ConsoleDeps): void {
  const { profiles } = deps.services;
  const send = (reply: FastifyReply, body: string) => reply.type('text/html; charset=utf-8').send(body);
  const caller = (request: FastifyRequest) => callerContext(request, deps.db, deps.clock);
  const orgProfile = async (request: FastifyRequest): Promise<ProfileView | undefined> =>
    (await profiles.list({ ctx: caller(request) })).find((p) => p.keyId === null);

  const view = async (request: FastifyRequest, message?: Html) => {
    const session = sessionOf(request);
    const profile = await orgProfile(request);
    const active = profile?.active.settings ?? { ...DEFAULT_SETTINGS };
    const draft = profile?.draft ?? null;
    const csrf = csrfField(session);
    const admin = readOnly(session, 'administer');
    const pendingByOther = draft?.state === 'pending' && draft.requestedBy !== session.userId;
    return page(
      { title: 'Settings', session, section: 'settings', notice: message },
      html`${settingsTabs('profile')}
        <h2>Screening profile</h2>
        <p>
          ${
            profile
              ? html`Active: version <strong id="active-version">${String(profile.activeVersion)}</strong>, since
                  ${when(profile.active.activatedAt)}${profile.active.reason ? html` (reason: ${profile.active.reason})` : ''}.`
              : html`No profile yet: every screening runs under the built-in default (version 0). Saving a draft makes
                the organization's profile.`
          }
        </p>
        ${knobTable(active, draft?.settings)}
        ${
          draft
            ? html`<p id="draft-state">
                Draft version ${String(draft.version)}:
                ${draft.state === 'pending' ? 'waits for a second admin to approve it (four-eyes).' : 'not active yet.'}
              </p>`
            : ''
        }
        ${profile?.backtest ? report(profile.backtest) : ''}
        ${
          admin ??
          html`<h3>Draft</h3>
            ${draftForm(csrf, draft?.settings ?? active)}
            ${
              draft && draft.state === 'draft'
                ? html`<form class="row" method="post" action="/console/settings/profile/backtest">
                      ${csrf}
                      <label for="windowDays"
                        >Window (days)
                        <input id="windowDays" name="windowDays" type="number" min="1" max="3660" value="90"
                      /></label>
                      <button type="submit">Run backtest</button>
                    </form>
                    <form method="post" action="/console/settings/profile/activate">
                      ${csrf}
                      <label for="reason"
                        >Reason (needed when a confirmed match would be lost)
                        <textarea id="reason" name="reason"></textarea>
                      </label>
                      <p><button type="submit">Activate draft</button></p>
                    </form>`
                : ''
            }
            ${
              pendingByOther
                ? html`<form method="post" action="/console/settings/profile/approve">
                    ${csrf}<button type="submit">Approve activation</button>
                  </form>`
                : ''
            }
            ${
              draft
                ? html`<form method="post" action="/console/settings/profile/discard">
                    ${csrf}<button type="submit" class="secondary">Discard draft</button>
                  </form>`
                : ''
            }`
        }`,
    );
  };

  /** Runs a change; a refusal the admin can fix is shown on the page, with a 400/409 status. */
  const act = async (request: FastifyRequest, reply: FastifyReply, fn: () => Promise<string>) => {
    allowed(request, 'administer');
    try {
      const ok = await fn();
      return send(reply, await view(request, notice('ok', ok)));
    } catch (error) {
      if (error instanceof AppError && error.status < 500 && error.code !== 'FORBIDDEN') {
        void reply.status(error.status);
        return send(reply, await view(request, notice('error', error.message)));
      }
      throw error;
    }
  };

  app.get('/settings/profile', async (request, reply) => send(reply, await view(request)));

  app.post('/settings/profile/draft', async (request, reply) =>
    act(request, reply, async () => {
      const ctx = caller(request);
      const settings = settingsFromForm(request);
      const profile = await orgProfile(request);
      if (profile) await profiles.saveDraft({ ctx, input: { id: profile.id, settings } });
      else await profiles.create({ ctx, input: { name: 'Organization profile', settings } });
      return 'The draft is saved. Run the backtest to see what it changes.';
    }),
  );

  const withProfile = async (request: FastifyRequest) => {
    const profile = await orgProfile(request);
    if (!profile) throw new AppError('CONFLICT', 'the organization has no screening profile yet: save a draft first');
    return profile;
  };

  app.post('/settings/profile/backtest', async (request, reply) =>
    act(request, reply, async () => {
      const profile = await withProfile(request);
      const days = field(request, 'windowDays').trim();
      const backtest = await profiles.backtest({
        ctx: caller(request),
        input: { id: profile.id, ...(days ? { windowDays: Number(days) } : {}) },
      });
      return `Backtest done: ${backtest.alerts.removed} alerts removed, ${backtest.confirmedLost.total} confirmed matches would be lost.`;
    }),
  );

  app.post('/settings/profile/activate', async (request, reply) =>
    act(request, reply, async () => {
      const profile = await withProfile(request);
      const reason = field(request, 'reason').trim();
      const after = await profiles.activate({
        ctx: caller(request),
        input: { id: profile.id, ...(reason ? { reason } : {}) },
      });
      return after.draft?.state === 'pending'
        ? 'Activation requested: another admin must approve it (four-eyes).'
        : `Version ${after.activeVersion} is active: screenings from now on run under it.`;
    }),
  );

  app.post('/settings/profile/approve', async (request, reply) =>
    act(request, reply, async () => {
      const profile = await withProfile(request);
      const after = await profiles.approve({ ctx: caller(request), input: { id: profile.id } });
      return `Version ${after.activeVersion} is active.`;
    }),
  );

  app.post('/settings/profile/discard', async (request, reply) =>
    act(request, reply, async () => {
      const profile = await withProfile(request);
      await profiles.discardDraft({ ctx: caller(request), input: { id: profile.id } });
      return 'The draft is discarded.';
    }),
  );
}
