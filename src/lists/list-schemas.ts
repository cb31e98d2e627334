import { type Static, Type } from '@sinclair/typebox';
import { CHANGE_FIELDS } from './list-changes.js';
import { SOURCE_IDS } from './model.js';

/** Shapes of GET /v1/lists/changes (issue 30): the change feed. */

const ChangeKindSchema = Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed')]);
const SourceSchema = Type.Union([...SOURCE_IDS, 'us_ofac_50'].map((s) => Type.Literal(s)));

export const ListChangesQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'A list version id (`lv_...`): the changes of the versions put in force after it; or an ISO 8601 date or time: the changes put in force after it.',
      }),
    ),
    source: Type.Optional(SourceSchema),
    kind: Type.Optional(ChangeKindSchema),
    cursor: Type.Optional(
      Type.String({ maxLength: 400, description: '`meta.next` of an earlier page: the changes after it.' }),
    ),
    pageSize: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Changes per page, 1 to 100.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListChangesQueryType = Static<typeof ListChangesQuery>;

const FieldDeltaSchema = Type.Object({
  added: Type.Array(Type.String(), { description: 'Values the newer version has and the older one had not.' }),
  removed: Type.Array(Type.String(), { description: 'Values the older version had and the newer one has not.' }),
});

export const ListChange = Type.Object(
  {
    id: Type.String({ description: 'The change: `<version id>.<position>`.' }),
    source: SourceSchema,
    sourceLabel: Type.String(),
    versionId: Type.String({ description: 'The version whose activation made the change.' }),
    activatedAt: Type.String({ format: 'date-time' }),
    entityId: Type.String({ description: '`<source_id>:<record_id>`, as in matches.' }),
    name: Type.String({ description: 'The name as listed (in the older version for a removal).' }),
    entityType: Type.String(),
    kind: ChangeKindSchema,
    major: Type.Boolean({
      description:
        'A change that lapses a false-positive suppression: any name or alias, birth date, nationality, identifier, program or the entity type; additions and removals are major.',
    }),
    fields: Type.Array(Type.Union(CHANGE_FIELDS.map((f) => Type.Literal(f))), {
      description: 'For a change: the fields that differ. Empty for additions and removals.',
    }),
    changes: Type.Record(Type.String(), FieldDeltaSchema, {
      description: 'Per field in `fields`: the values added and removed.',
    }),
  },
  { $id: 'ListChange', title: 'ListChange' },
);

export const ListChangePage = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(Type.Ref(ListChange)),
    meta: Type.Object({
      next: Type.Union([Type.String(), Type.Null()], {
        description:
          'Pass as `cursor` to read the changes after this page; kept while there are none yet, so a reader can poll with it.',
      }),
      hasMore: Type.Boolean({ description: 'More changes follow this page now.' }),
      pageSize: Type.Integer(),
    }),
  },
  { description: 'One page of changes, oldest first (newest last).' },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const ListsChangedCounts = {
  added: Count('Entities added.'),
  removed: Count('Entities removed.'),
  changed: Count('Entities changed.'),
  major: Count('Of these, the changes that lapse a suppression (additions and removals count too).'),
};

/**
 * The body of the opt-in webhook event `lists.changed` (src/monitoring/lists-changed.ts): the list
 * versions that came into force, their counts of changed entities and links to the change feed.
 */
export const ListsChangedEvent = Type.Object(
  {
    event: Type.Literal('lists.changed'),
    timestamp: Type.String({ format: 'date-time', description: 'When the event was written.' }),
    organization: Type.Object(
      { id: Type.String({ description: '`org_<id>`' }), slug: Type.String(), name: Type.String() },
      { additionalProperties: false },
    ),
    lists: Type.Object(
      {
        versions: Type.Array(
          Type.Object(
            {
              source: SourceSchema,
              versionId: Type.String({ description: 'The version that came into force (`lv_...`).' }),
              previousVersionId: Type.Union([Type.String(), Type.Null()], {
                description: "The source's version in force before it; null for its first version.",
              }),
              activatedAt: Type.String({ format: 'date-time' }),
              ...ListsChangedCounts,
              feed: Type.String({ description: "GET /v1/lists/changes of this version's changes." }),
            },
            { additionalProperties: false },
          ),
          { description: 'One entry per version that changed at least one entity.' },
        ),
        ...ListsChangedCounts,
        feed: Type.String({
          description: 'GET /v1/lists/changes of all these changes; absolute when PUBLIC_URL is set.',
        }),
      },
      { additionalProperties: false, description: 'Counts over all the versions, and per version.' },
    ),
  },
  {
    $id: 'ListsChangedEvent',
    title: 'ListsChangedEvent',
    additionalProperties: false,
    description: 'The body of the webhook event `lists.changed`.',
  },
);

export const LIST_SCHEMAS = [ListChange, ListsChangedEvent];
