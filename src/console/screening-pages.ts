import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../infra/errors.js';
import { SCREENING_IDENTIFIER_TYPES } from '../identifiers/index.js';
import { hasApiAccess } from '../tenants/index.js';
import type { ConsoleDeps } from './console-deps.js';
import { type Html, html, query } from './html.js';
import { csrfField, notice, page, pager, readOnly, riskLevel, when } from './layout.js';
import { DECIDED_NOTICES, type DecidedMatch, decisionForm, decisionState } from './decision-pages.js';
import { screeningDetail, type ScreeningView } from './screening-views.js';
import { allowed, callerContext, field, sessionOf } from './session.js';

/** Screen (the form), Screenings (the filters of GET /screenings, paging) and one screening in full. */

const PAGE_SIZE = 20;

interface ScreenValues {
  name: string;
  entityType: string;
  country: string;
  birthDate: string;
  identifierType: string;
  identifier: string;
}

const TYPES = [
  ['', 'Any'],
  ['person', 'Person'],
  ['organization', 'Organization'],
  ['vessel', 'Vessel'],
  ['aircraft', 'Aircraft'],
] as const;

function screenForm(request: FastifyRequest, values: ScreenValues, message?: Html): string {
  const session = sessionOf(request);
  const form =
    readOnly(session, 'work') ??
    html`<form class="stack" method="post" action="/console/screen">
        ${csrfField(session)}
        <label for="name"
          >Name <input id="name" name="name" required maxlength="500" value="${values.name}" autocomplete="off"
        /></label>
        <div class="field">
          <label for="entityType">Type</label>
          <select id="entityType" name="entityType">
            ${TYPES.map(
              ([value, label]) =>
                html`<option value="${value}" ${value === values.entityType ? html` selected` : ''}>${label}</option>`,
            )}
          </select>
        </div>
        <label for="country"
          >Country
          <input
            id="country"
            name="country"
            maxlength="2"
            placeholder="ISO code, e.g. GB"
            value="${values.country}"
            autocomplete="off"
        /></label>
        <label for="birthDate"
          >Birth date <input id="birthDate" name="birthDate" type="date" value="${values.birthDate}"
        /></label>
        <div class="field">
          <label for="identifierType">Identifier type</label>
          <select id="identifierType" name="identifierType">
            <option value="">None</option>
            ${SCREENING_IDENTIFIER_TYPES.map(
              (t) => html`<option value="${t}" ${t === values.identifierType ? html` selected` : ''}>${t}</option>`,
            )}
          </select>
        </div>
        <label for="identifier"
          >Identifier
          <input
            id="identifier"
            name="identifier"
            maxlength="200"
            value="${values.identifier}"
            autocomplete="off"
            placeholder="IMO 9176187, an LEI, a passport number"
        /></label>
        <div><button type="submit">Screen</button></div>
      </form>
      <p class="muted">
        Each screening is stored, counts toward the monthly quota and groups a party's listings from every list.
      </p>`;
  return page({ title: 'Screen a name', session, section: 'screen', notice: message }, form);
}

export function screeningPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const { screening, monitors } = deps.services;
  const caller = (request: FastifyRequest) => callerContext(request, deps.db, deps.clock);
  const send = (reply: FastifyReply, body: string) => reply.type('text/html; charset=utf-8').send(body);

  app.get('/screen', async (request, reply) =>
    send(
      reply,
      screenForm(request, { name: '', entityType: '', country: '', birthDate: '', identifierType: '', identifier: '' }),
    ),
  );

  app.post('/screen', async (request, reply) => {
    const session = allowed(request, 'work');
    const values: ScreenValues = {
      name: field(request, 'name'),
      entityType: field(request, 'entityType'),
      country: field(request, 'country').trim(),
      birthDate: field(request, 'birthDate').trim(),
      identifierType: field(request, 'identifierType'),
      identifier: field(request, 'identifier').trim(),
    };
    try {
      if (!hasApiAccess(session.tier))
        throw new AppError('FEATURE_NOT_AVAILABLE', 'screening requires the Starter tier or above');
      if (values.entityType !== '' && !TYPES.some(([t]) => t === values.entityType))
        throw new AppError('VALIDATION_ERROR', 'entityType: is not a known type', { field: 'entityType' });
      const result = await screening.screen({
        ctx: caller(request),
        input: {
          body: {
            name: values.name,
            groupByCluster: true,
            ...(values.entityType ? { entityType: values.entityType as 'person' } : {}),
            ...(values.country ? { country: values.country } : {}),
            ...(values.birthDate ? { birthDate: values.birthDate } : {}),
            // One identifier from the form (the API takes several); the service checks its type and value.
            ...(values.identifier
              ? { identifiers: [{ type: values.identifierType as 'imo', value: values.identifier }] }
              : {}),
          },
          idempotencyKey: undefined,
        },
      });
      return reply.redirect(`/console/screenings/${encodeURIComponent(result.screeningId ?? '')}`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500 || error.code === 'RATE_LIMITED') throw error;
      return send(reply.status(error.status), screenForm(request, values, notice('error', error.message)));
    }
  });

  app.get('/screenings', async (request, reply) => {
    const session = sessionOf(request);
    const query = request.query as Record<string, string | undefined>;
    const filters = {
      riskLevel: ['low', 'medium', 'high'].includes(query.riskLevel ?? '') ? (query.riskLevel as 'low') : '',
      dateFrom: query.dateFrom?.trim() ?? '',
      dateTo: query.dateTo?.trim() ?? '',
      search: query.search?.trim() ?? '',
    };
    const pageNumber = Math.max(1, Math.min(1_000_000, Number.parseInt(query.page ?? '1', 10) || 1));
    let message: Html | undefined;
    let result: Awaited<ReturnType<typeof screening.listScreenings>> = { items: [], total: 0 };
    try {
      result = await screening.listScreenings({
        ctx: caller(request),
        input: {
          page: pageNumber,
          pageSize: PAGE_SIZE,
          ...(filters.riskLevel ? { riskLevel: filters.riskLevel } : {}),
          ...(filters.dateFrom ? { dateFrom: filters.dateFrom } : {}),
          ...(filters.dateTo ? { dateTo: filters.dateTo } : {}),
          ...(filters.search ? { search: filters.search } : {}),
        },
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR') throw error;
      message = notice('error', error.message);
      void reply.status(400);
    }
    const levels = ['', 'high', 'medium', 'low'];
    return send(
      reply,
      page(
        { title: 'Screenings', session, section: 'screenings', notice: message },
        html`<form class="row" method="get" action="/console/screenings" role="search">
            <label for="search">Name contains <input id="search" name="search" value="${filters.search}" /></label>
            <label for="riskLevel"
              >Risk level
              <select id="riskLevel" name="riskLevel">
                ${levels.map(
                  (l) =>
                    html`<option value="${l}" ${l === filters.riskLevel ? html` selected` : ''}>${l || 'Any'}</option>`,
                )}
              </select></label
            >
            <label for="dateFrom"
              >From <input id="dateFrom" name="dateFrom" type="date" value="${filters.dateFrom}"
            /></label>
            <label for="dateTo">To <input id="dateTo" name="dateTo" type="date" value="${filters.dateTo}" /></label>
            <button type="submit">Filter</button>
          </form>
          <table>
            <thead>
              <tr>
                <th scope="col">Screened</th>
                <th scope="col">Name</th>
                <th scope="col">Risk</th>
                <th scope="col">Top match</th>
                <th scope="col">Lists</th>
                <th scope="col">Monitored</th>
              </tr>
            </thead>
            <tbody>
              ${result.items.map(
                (s) =>
                  html`<tr>
                    <td>${when(s.timestamp)}</td>
                    <td><a href="/console/screenings/${encodeURIComponent(s.id)}">${s.query}</a></td>
                    <td>${riskLevel(s.riskLevel, s.riskScore)}</td>
                    <td>${s.entityName ?? html`<span class="muted">none</span>`}</td>
                    <td>${s.matchedSources.join(', ')}</td>
                    <td>${s.isMonitored ? 'yes' : 'no'}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${result.items.length === 0 ? html`<p>No screenings match these filters.</p>` : ''}
          ${pager('/console/screenings', pageNumber, PAGE_SIZE, result.total, Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')))}`,
      ),
    );
  });

  app.get('/screenings/:id', async (request, reply) => {
    const session = sessionOf(request);
    const { id } = request.params as { id: string };
    const record = (await screening.getScreening({ ctx: caller(request), input: { id } })) as ScreeningView;
    const done = (request.query as Record<string, string>).done;
    const monitorForm =
      record.isMonitored || readOnly(session, 'work')
        ? undefined
        : html`<form class="row" method="post" action="/console/screenings/${encodeURIComponent(record.id)}/monitor">
            ${csrfField(session)}
            <label for="riskThreshold"
              >Alert threshold
              <input id="riskThreshold" name="riskThreshold" type="number" min="0" max="100" step="0.1" value="55"
            /></label>
            <button type="submit" class="secondary">Monitor</button>
          </form>`;
    return send(
      reply,
      page(
        {
          title: `Screening of "${record.query}"`,
          session,
          section: 'screenings',
          notice:
            done === 'monitored'
              ? notice('ok', 'The search is now monitored.')
              : done && DECIDED_NOTICES[done]
                ? notice('ok', DECIDED_NOTICES[done])
                : undefined,
        },
        screeningDetail(record, {
          ...(monitorForm ? { monitorForm } : {}),
          actions: (m, i) => {
            const decided = m as unknown as DecidedMatch;
            const action = `/console/screenings/${encodeURIComponent(record.id)}/decisions`;
            return html`${decisionState(decided)}${decisionForm(session, action, m.entity.id, `m${i}`)}`;
          },
        }),
      ),
    );
  });

  app.post('/screenings/:id/monitor', async (request, reply) => {
    allowed(request, 'work');
    const { id } = request.params as { id: string };
    const raw = field(request, 'riskThreshold').trim();
    const threshold = raw === '' ? undefined : Number(raw);
    await monitors.createMonitor({
      ctx: caller(request),
      input: { screeningId: id, ...(threshold !== undefined ? { riskThreshold: threshold } : {}) },
    });
    return reply.redirect(`/console/screenings/${encodeURIComponent(id)}${query({ done: 'monitored' })}`, 303);
  });
}
