import pg from 'pg';
import type { DatabaseConfig } from './config.js';
import { stripSchemaParam } from './database.js';
import type { TableWatch } from './table-watch.js';
import { writesTo } from './write-counter.js';

/** The channel the key-auth tables' triggers notify on (migration 0015_key_auth_notify); the payload is the schema. */
export const KEY_AUTH_CHANNEL = 'sanctions_key_auth';

export interface ClosableWatch extends TableWatch {
  close(): Promise<void>;
}

/**
 * Watches tables of a PostgreSQL database through LISTEN/NOTIFY: triggers on the tables notify at the
 * commit of every statement that wrote them, by any node or the command line, and this node's
 * listening connection turns each notification for its schema into a new version. While the
 * connection is not listening (starting, lost, reconnecting) the version is undefined, so a cache on
 * it reads the database every time; a reconnection starts a new version, since notifications sent
 * meanwhile were missed. Writes sent by this process (write-counter.ts) change the version at once.
 * `tables` must be the tables whose triggers notify on `channel`.
 */
export function pgNotifyWatch(
  config: DatabaseConfig,
  tables: readonly string[],
  channel = KEY_AUTH_CHANNEL,
): ClosableWatch {
  const schema = config.schema ?? 'public';
  let version = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = () => {
    if (closed) return;
    const pgClient = new pg.Client({ connectionString: stripSchemaParam(config.url), keepAlive: true });
    client = pgClient;
    const lost = () => {
      if (client !== pgClient) return;
      listening = false;
      client = undefined;
      pgClient.end().catch(() => undefined);
      if (!closed) retry = setTimeout(connect, 500);
      retry?.unref();
    };
    pgClient.on('error', lost);
    pgClient.on('end', lost);
    pgClient.on('notification', (message) => {
      if (message.channel === channel && (message.payload ?? '') === schema) version++;
    });
    pgClient
      .connect()
      .then(() => pgClient.query(`LISTEN ${channel}`))
      .then(() => {
        version++;
        listening = true;
      })
      .catch(lost);
  };
  connect();

  return {
    // This process's own writes count at once, before their commit's notification comes back.
    version: () => (listening ? version + writesTo(tables) : undefined),
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
