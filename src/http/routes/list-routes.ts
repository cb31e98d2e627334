import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type ChangePage, type ChangeQuery, ListChangePage, ListChangesQuery } from '../../lists/index.js';
import type { Call } from '../../infra/context.js';
import { contextOf } from '../pipeline.js';
import { COMMON_ERRORS, responses } from '../schemas.js';

export interface ListRouteDeps {
  changes: (call: Call<ChangeQuery>) => Promise<ChangePage>;
}

/** GET /v1/lists/changes: the change feed of the lists (issue 30). */
export function listRoutes(deps: ListRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/lists/changes',
      {
        schema: {
          tags: ['lists'],
          operationId: 'listChanges',
          summary: 'What changed on the lists: added, removed and changed entities per activated version',
          description:
            'Every version put in force is compared with the one it replaced, entity by entity (the first version of a source has no changes). Oldest first; page with `cursor` (`meta.next`), which stays valid for good. The same for every organization.',
          security: [{ apiKey: [] }],
          querystring: ListChangesQuery,
          response: responses({ 200: ListChangePage }, COMMON_ERRORS),
        },
      },
      async (request) => {
        const query = request.query;
        const pageSize = query.pageSize ?? 20;
        const page = await deps.changes({
          ctx: contextOf(request),
          input: {
            pageSize,
            ...(query.since !== undefined ? { since: query.since } : {}),
            ...(query.source !== undefined ? { source: query.source } : {}),
            ...(query.kind !== undefined ? { kind: query.kind } : {}),
            ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
          },
        });
        return { success: true, data: page.items, meta: { next: page.next, hasMore: page.hasMore, pageSize } };
      },
    );
  };
}
