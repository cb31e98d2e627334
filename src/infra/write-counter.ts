import {
  DeleteQueryNode,
  InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
  UpdateQueryNode,
} from 'kysely';

/** Statements this process has sent that write each table (by name), since it started. */
const writes = new Map<string, number>();

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (TableNode.is(node)) return node.table.identifier.name;
  // An aliased table (`update api_keys as k`).
  const inner = (node as { node?: OperationNode }).node;
  return inner && TableNode.is(inner) ? inner.table.identifier.name : undefined;
}

function writtenTables(node: RootOperationNode): (string | undefined)[] {
  if (InsertQueryNode.is(node)) return [tableName(node.into)];
  if (UpdateQueryNode.is(node)) return [tableName(node.table)];
  if (DeleteQueryNode.is(node)) return node.from.froms.map(tableName);
  return [];
}

/**
 * Counts the statements built with Kysely's query builder that write each table, as they are sent:
 * a cache in this process learns of its own writes at once (infra/pg-notify-watch.ts), before the
 * notification of their commit comes back. A write counted that later rolls back costs one read.
 */
export const writeCounter: KyselyPlugin = {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    for (const table of writtenTables(node)) if (table) writes.set(table, (writes.get(table) ?? 0) + 1);
    return node;
  },
  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  },
};

/** Writes this process has sent to these tables so far. */
export function writesTo(tables: readonly string[]): number {
  let sum = 0;
  for (const table of tables) sum += writes.get(table) ?? 0;
  return sum;
}
