import type { SessionView } from '../accounts/index.js';
import { can } from '../tenants/index.js';
import { type Html, html } from './html.js';

/** The page frame of the console: skip link, navigation, who is signed in, the page's notice. */

export const NAV = [
  { id: 'screen', label: 'Screen', href: '/console/screen' },
  { id: 'screenings', label: 'Screenings', href: '/console/screenings' },
  { id: 'alerts', label: 'Alerts', href: '/console/alerts' },
  { id: 'monitors', label: 'Monitors', href: '/console/monitors' },
  { id: 'batches', label: 'Batches', href: '/console/batches' },
  { id: 'lists', label: 'Lists', href: '/console/lists' },
  { id: 'validation', label: 'Validation', href: '/console/validation' },
  { id: 'audit', label: 'Audit', href: '/console/audit' },
  { id: 'settings', label: 'Settings', href: '/console/settings/keys' },
] as const;

export type Section = (typeof NAV)[number]['id'] | 'none';

export interface PageOptions {
  title: string;
  session?: SessionView | undefined;
  section?: Section;
  notice?: Html | undefined;
}

export function csrfField(session: SessionView): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrfToken}" />`;
}

export function notice(kind: 'ok' | 'error' | 'info', text: string | Html): Html {
  return html`<div class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">
    ${kind === 'error' ? html`<strong>Error:</strong> ` : ''}${text}
  </div>`;
}

/** Says, where a form would be, that this role may only read. */
export function readOnly(session: SessionView, permission: 'work' | 'administer'): Html | undefined {
  if (can(session.role, permission)) return undefined;
  return html`<p class="muted">Your role (${session.role}) can read this page but not change anything here.</p>`;
}

function header(options: PageOptions): Html {
  const session = options.session;
  if (!session) return html`<header class="top"><span class="brand">Sanctions screening</span></header>`;
  return html`<header class="top">
    <span class="brand">Sanctions screening</span>
    <nav aria-label="Main">
      <ul>
        ${NAV.map(
          (item) =>
            html`<li>
              <a href="${item.href}" ${item.id === options.section ? html` aria-current="page"` : ''}>${item.label}</a>
            </li>`,
        )}
      </ul>
    </nav>
    <div class="who">
      <span>${session.email} · ${session.orgName} · role: ${session.role}</span>
      <a href="/console/organizations">Switch organization</a>
      <form class="inline" method="post" action="/console/logout">
        ${csrfField(session)}<button type="submit">Sign out</button>
      </form>
    </div>
  </header>`;
}

export function page(options: PageOptions, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · Sanctions screening</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#content">Skip to content</a>
        ${header(options)}
        <main id="content">
          <h1>${options.title}</h1>
          ${options.notice} ${body}
        </main>
      </body>
    </html>`.value;
}

export function when(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">never</span>`;
  return html`<time datetime="${iso}"
    >${iso
      .replace('T', ' ')
      .replace(/\.\d+Z$/, 'Z')
      .replace(/:\d\dZ$/, ' UTC')}</time
  >`;
}

export function riskLevel(level: string, score?: number): Html {
  return html`<span class="level ${level}">${level.toUpperCase()}${score !== undefined ? ` ${score}` : ''}</span>`;
}

export function pager(
  path: string,
  page: number,
  pageSize: number,
  total: number,
  params: Record<string, string>,
): Html {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const link = (p: number) => `${path}?${new URLSearchParams({ ...params, page: String(p) }).toString()}`;
  return html`<nav class="pager" aria-label="Pages">
    ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous page</a>` : ''}
    <span>Page ${page} of ${pages} (${total} in all)</span>
    ${page < pages ? html`<a href="${link(page + 1)}" rel="next">Next page</a>` : ''}
  </nav>`;
}
