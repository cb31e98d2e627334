import type { Compilable, CompiledQuery, QueryResult, RawBuilder } from 'kysely';
import type { Db } from './database.js';

/**
 * Queries of the request path, built and compiled once and then run with new parameters.
 *
 * Building a Kysely query and compiling it to SQL costs more CPU than running it on SQLite: on the
 * POST /screen path the builders and the compiler were a quarter of the HTTP thread's time. A
 * prepared query is built once with placeholders in its value positions, compiled by the database's
 * own dialect (so it works on SQLite and PostgreSQL alike), and each run only puts the values in
 * the places the placeholders took in the compiled parameter list. The same SQL text also hits the
 * SQLite driver's statement cache at once.
 *
 * Parameters may stand only where a value goes (never a table or column name, never a list for `in`):
 * compiling checks that every placeholder became a bound parameter and that none was written into
 * the SQL text, and throws otherwise.
 */

/** What a prepared query's builder may return: a query builder or a `sql` template. */
export type PreparableQuery<R> = Compilable<R> | RawBuilder<R>;

const MARK = '\u0000prepared-parameter:';

/** A parameter slot: the name of a parameter, or a value fixed when the query was built. */
type Slot = { name: string } | { value: unknown };

function isRawBuilder<R>(query: PreparableQuery<R>): query is RawBuilder<R> {
  return (query as Partial<RawBuilder<R>>).isRawBuilder === true;
}

export class PreparedQuery<P extends object, R> {
  /** Made by prepareQuery. */
  constructor(
    private readonly db: Db,
    readonly compiled: CompiledQuery<R>,
    private readonly slots: Slot[],
  ) {}

  /** The compiled query with these parameters. */
  bind(params: P): CompiledQuery<R> {
    const values = params as Record<string, unknown>;
    const parameters = this.slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
    const { query, queryId, sql } = this.compiled;
    return { query, queryId, sql, parameters };
  }

  /**
   * Runs the query; `executor` is a transaction to run it in, or by default the database it was
   * prepared on (a transaction of that database shares its dialect, so the SQL is the same).
   */
  execute(params: P, executor: Db = this.db): Promise<QueryResult<R>> {
    return executor.executeQuery(this.bind(params));
  }

  /** The first row, for a select or a statement with `returning`. */
  async first(params: P, executor: Db = this.db): Promise<R | undefined> {
    return (await this.execute(params, executor)).rows[0];
  }

  /** Rows inserted, updated or deleted. */
  async affectedRows(params: P, executor: Db = this.db): Promise<number> {
    return Number((await this.execute(params, executor)).numAffectedRows ?? 0);
  }
}

/**
 * A set of prepared queries made once per database: `const queries = preparedFor((db) => ({ ... }))`,
 * then `queries(db).byId.first({ id })`. Pass the database, not a transaction: a transaction is
 * given to `execute` instead.
 */
export function preparedFor<Q>(make: (db: Db) => Q): (db: Db) => Q {
  const made = new WeakMap<Db, Q>();
  return (db) => {
    if (db.isTransaction)
      throw new Error('prepared queries are made on the database and run in a transaction, not made on one');
    let queries = made.get(db);
    if (queries === undefined) {
      queries = make(db);
      made.set(db, queries);
    }
    return queries;
  };
}

/** Builds `build`'s query once on `db`, its parameters standing where `params`' fields are used. */
export function prepareQuery<P extends object, R>(
  db: Db,
  build: (db: Db, params: P) => PreparableQuery<R>,
): PreparedQuery<P, R> {
  const used = new Map<string, string>();
  const params = new Proxy({} as P, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      let mark = used.get(name);
      if (mark === undefined) {
        mark = `${MARK}${name}`;
        used.set(name, mark);
      }
      return mark;
    },
  });
  const query = build(db, params);
  // A `sql` template compiles with the database it runs on; a query builder already knows it.
  const compiled = isRawBuilder(query) ? query.compile(db) : query.compile();
  if (compiled.sql.includes(MARK)) {
    throw new Error(
      `a prepared query has a parameter where no value goes (a name or an inlined value): ${compiled.sql}`,
    );
  }
  const names = new Map([...used].map(([name, mark]) => [mark, name]));
  const bound = new Set<string>();
  const slots = compiled.parameters.map((value): Slot => {
    const name = typeof value === 'string' ? names.get(value) : undefined;
    if (name === undefined) return { value };
    bound.add(name);
    return { name };
  });
  for (const name of used.keys()) {
    if (!bound.has(name))
      throw new Error(`the parameter "${name}" of a prepared query is not bound in: ${compiled.sql}`);
  }
  return new PreparedQuery<P, R>(db, compiled, slots);
}
