import { Type } from '@sinclair/typebox';

/** The paging query parameters every list route takes (GET /screenings, /decisions, /monitors, /batches...). */
export const PageQuery = {
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 1,
      description: 'Page number, from 1 (at most 1,000,000).',
    }),
  ),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page, 1 to 100.' }),
  ),
};
