import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/**
 * Configuration is read from the environment once, validated, frozen and handed to modules as slices.
 * Nothing else in the code base reads process.env. A bad value stops start-up with a message naming it.
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface DatabaseConfig {
  /** `sqlite` (embedded, one process) or `postgres` (several nodes on one database). */
  engine: 'sqlite' | 'postgres';
  /** SQLite file path, or the PostgreSQL connection string. */
  url: string;
  /** PostgreSQL schema to use (search_path); tests give each run its own. */
  schema?: string;
  /** SQLite synchronous pragma: FULL survives power loss, NORMAL is faster. */
  sqliteSynchronous: 'FULL' | 'NORMAL';
  poolSize: number;
}

export interface HttpConfig {
  host: string;
  port: number;
  rateLimitPerMinute: number;
  /** Requests without a valid key (missing, unknown, revoked, expired), per client address per minute. */
  authFailureLimitPerMinute: number;
  /** Requests to the public routes (/health, /openapi.json, /docs) per client address per minute. */
  publicRateLimitPerMinute: number;
  trustProxy: boolean;
  /** The address clients reach the service at, for the OpenAPI servers entry; unset: relative. */
  publicUrl?: string;
}

export interface ListsConfig {
  /** Offline source of list files: one sub-folder per source id. Unset: download from the publishers. */
  dir?: string;
  /** Where downloads are kept. */
  downloadDir: string;
  /** Daily refresh time, HH:MM in UTC. */
  syncTime: string;
  /** Sync sources that have no good version yet when the server starts. */
  syncOnStart: boolean;
  /** How often a node checks the database for newer list versions, in ms. */
  reloadIntervalMs: number;
  /** A source with no good sync for this long is stale, in ms (48 h). */
  staleAfterMs: number;
  httpTimeoutMs: number;
  httpRetries: number;
  /** Overrides of publisher addresses: `source:fileName=url` pairs. */
  urlOverrides: Record<string, string>;
  /** Reject a new version that has fewer than this share of the current version's records. */
  minRecordRatio: number;
}

export interface OwnershipConfig {
  /** Ownership data files (GLEIF LEI-CDF / RR-CDF, stakes CSV). Unset: no derived source. */
  dir?: string;
}

export interface MatchingConfig {
  /** Matches below this matchScore are not reported. */
  floor: number;
  maxMatches: number;
  /** Worker threads that hold the matching index and score screenings; 0 scores on the main thread. */
  threads: number;
}

export interface WebhookConfig {
  retryDelaysMs: number[];
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  /** Consecutive failed attempts that pause an organization's webhook (api-v1.md 6.4). */
  pauseAfterFailures: number;
  pollIntervalMs: number;
}

export interface MonitoringConfig {
  batchSize: number;
  /** Rescreen all monitors at least this often, in ms (DECISIONS.md: at least daily). */
  maxIntervalMs: number;
}

export interface AuditConfig {
  /**
   * Years an audit entry is kept at least (31 CFR 501.601: ten years since March 2025). Nothing
   * younger is ever deleted; `sanctions audit prune` deletes what is older.
   */
  retentionYears: number;
}

/** Batch screening (issue 14): how the background rows run beside interactive requests. */
export interface BatchConfig {
  /** Rows of batches in flight at once on one node while no interactive request is under way. */
  concurrency: number;
  /** Rows of batches in flight at once on one node while interactive requests are under way. */
  busyConcurrency: number;
  /** Rows one round claims. */
  claimSize: number;
  /** How long a claim holds before another node may take the row, in ms. */
  leaseMs: number;
  pollIntervalMs: number;
}

/** The web console (issue 16): links, sessions and sign-in limits. */
export interface ConsoleConfig {
  /** Where users reach the server; invitation links printed by the command line start with it. */
  publicUrl: string;
  /** A session unused this long ends, in ms. */
  sessionIdleMs: number;
  /** A session ends this long after sign-in whatever its use, in ms. */
  sessionMaxMs: number;
  /** Invitation and reset links expire after this long, in ms. */
  invitationTtlMs: number;
  /** Failed sign-ins per account within the window before sign-in is refused. */
  signInAccountLimit: number;
  /** Failed sign-ins per client address within the window before sign-in is refused. */
  signInAddressLimit: number;
  signInWindowMs: number;
  /** How long a single sign-on started at the provider may take to come back, in ms. */
  ssoLoginTtlMs: number;
  /**
   * Accept identity providers at http:// addresses (a provider on loopback in tests or a lab);
   * otherwise an issuer must be https.
   */
  ssoAllowHttp: boolean;
}

/** Operating the service (issue 17): metrics, shutdown, secrets at rest. */
export interface OpsConfig {
  /** Serve /metrics on this port (its own listener on `metricsHost`); unset: not on a port of its own. */
  metricsPort?: number;
  metricsHost: string;
  /** Bearer token for /metrics; with no METRICS_PORT, /metrics is on the API port only when this is set. */
  metricsToken?: string;
  /** Longest drain after SIGTERM before the process gives up and exits 1, in ms. */
  shutdownTimeoutMs: number;
  /** Base64 (32 bytes) or hex (64 characters): encrypts webhook secrets at rest. */
  secretKey?: string;
  /** Earlier keys, still able to decrypt (rotation). */
  previousSecretKeys: string[];
}

export interface Config {
  env: 'production' | 'development' | 'test';
  logLevel: LogLevel;
  dataDir: string;
  database: DatabaseConfig;
  http: HttpConfig;
  lists: ListsConfig;
  ownership: OwnershipConfig;
  matching: MatchingConfig;
  webhooks: WebhookConfig;
  monitoring: MonitoringConfig;
  audit: AuditConfig;
  batches: BatchConfig;
  console: ConsoleConfig;
  ops: OpsConfig;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function num(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new ConfigError(name, `must be a number, got "${raw}"`);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `250ms`, `10s`, `5m`, `4h`, `1d`. */
export function parseDuration(raw: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(raw.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * (DURATION_UNITS[match[2] as string] as number));
}

function duration(env: Env, name: string, fallback: string): number {
  const raw = str(env, name) ?? fallback;
  const ms = parseDuration(raw);
  if (ms === undefined || ms <= 0)
    throw new ConfigError(name, `must be a duration such as 10s, 5m or 1h, got "${raw}"`);
  return ms;
}

function durations(env: Env, name: string, fallback: string): number[] {
  const raw = str(env, name) ?? fallback;
  const parts = raw.split(',').map((p) => p.trim());
  const values = parts.map((p) => parseDuration(p));
  if (parts.length === 0 || values.some((v) => v === undefined || v <= 0)) {
    throw new ConfigError(name, `must be a comma-separated list of durations such as 1m,5m,15m, got "${raw}"`);
  }
  return values as number[];
}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const nodeEnv = str(env, 'NODE_ENV') ?? 'production';
  if (nodeEnv !== 'production' && nodeEnv !== 'development' && nodeEnv !== 'test') {
    throw new ConfigError('NODE_ENV', `must be production, development or test, got "${nodeEnv}"`);
  }
  const logLevel = (str(env, 'LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);

  const dataDir = resolve(str(env, 'DATA_DIR') ?? './data');
  const databaseUrl = str(env, 'DATABASE_URL');
  let database: DatabaseConfig;
  const sqliteSynchronous = (str(env, 'SQLITE_SYNCHRONOUS') ?? 'FULL').toUpperCase();
  if (sqliteSynchronous !== 'FULL' && sqliteSynchronous !== 'NORMAL') {
    throw new ConfigError('SQLITE_SYNCHRONOUS', 'must be FULL or NORMAL');
  }
  const poolSize = int(env, 'DATABASE_POOL_SIZE', 10, 1, 200);
  if (databaseUrl === undefined) {
    database = { engine: 'sqlite', url: resolve(dataDir, 'sanctions.db'), sqliteSynchronous, poolSize };
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    let schema: string | undefined;
    try {
      const parsed = new URL(databaseUrl);
      schema = parsed.searchParams.get('schema') ?? undefined;
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid URL');
    }
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new ConfigError('DATABASE_URL', 'has an invalid schema parameter (lower-case letters, digits, _)');
    }
    database = { engine: 'postgres', url: databaseUrl, sqliteSynchronous, poolSize, ...(schema ? { schema } : {}) };
  } else if (/^(sqlite|file):/.test(databaseUrl)) {
    database = {
      engine: 'sqlite',
      url: resolve(databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '')),
      sqliteSynchronous,
      poolSize,
    };
  } else {
    throw new ConfigError(
      'DATABASE_URL',
      'must start with postgres://, postgresql:// or sqlite:, or be unset for SQLite in DATA_DIR',
    );
  }

  const host = str(env, 'HOST') ?? '127.0.0.1';
  const syncTime = str(env, 'LIST_SYNC_TIME') ?? '04:00';
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(syncTime))
    throw new ConfigError('LIST_SYNC_TIME', `must be HH:MM (UTC), got "${syncTime}"`);

  const urlOverrides: Record<string, string> = {};
  const rawOverrides = str(env, 'LIST_URLS');
  if (rawOverrides) {
    for (const pair of rawOverrides.split(/[\s,]+/).filter(Boolean)) {
      const match = /^([a-z_]+):([^=]+)=(https?:\/\/\S+)$/.exec(pair);
      if (!match) throw new ConfigError('LIST_URLS', `entry "${pair}" must look like source:FILE=https://...`);
      urlOverrides[`${match[1]}:${(match[2] as string).toLowerCase()}`] = match[3] as string;
    }
  }

  const port = int(env, 'PORT', 8080, 0, 65535);
  // PUBLIC_URL, checked once (publicUrl below): the OpenAPI servers entry is relative without it;
  // console links need an absolute address, so they fall back to this host and port.
  const publicHttp = publicUrl(env);
  const consoleUrl =
    publicHttp.publicUrl ?? `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;

  const listsDir = str(env, 'LISTS_DIR');
  const ownershipDir = str(env, 'OWNERSHIP_DIR');
  const config: Config = {
    env: nodeEnv,
    logLevel,
    dataDir,
    database,
    http: {
      host,
      port,
      rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 60, 1, 10_000_000),
      authFailureLimitPerMinute: int(env, 'AUTH_FAILURE_LIMIT_PER_MINUTE', 30, 1, 10_000_000),
      publicRateLimitPerMinute: int(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
      trustProxy: bool(env, 'TRUST_PROXY', false),
      ...publicHttp,
    },
    lists: {
      ...(listsDir ? { dir: resolve(listsDir) } : {}),
      downloadDir: resolve(dataDir, 'downloads'),
      syncTime,
      syncOnStart: bool(env, 'LIST_SYNC_ON_START', true),
      reloadIntervalMs: duration(env, 'LIST_RELOAD_INTERVAL', '30s'),
      staleAfterMs: duration(env, 'LIST_STALE_AFTER', '48h'),
      httpTimeoutMs: duration(env, 'LIST_HTTP_TIMEOUT', '120s'),
      httpRetries: int(env, 'LIST_HTTP_RETRIES', 3, 0, 10),
      urlOverrides,
      minRecordRatio: num(env, 'LIST_MIN_RECORD_RATIO', 0.8, 0, 1),
    },
    ownership: ownershipDir ? { dir: resolve(ownershipDir) } : {},
    matching: {
      floor: num(env, 'MATCH_FLOOR', 50, 0, 100),
      maxMatches: int(env, 'MATCH_MAX_RESULTS', 10, 1, 100),
      // One matching thread beside the HTTP thread when there is a second core for it.
      threads: int(env, 'MATCH_THREADS', availableParallelism() > 1 ? 1 : 0, 0, 32),
    },
    webhooks: {
      retryDelaysMs: durations(env, 'WEBHOOK_RETRY_DELAYS', '1m,5m,15m,1h,4h'),
      timeoutMs: duration(env, 'WEBHOOK_TIMEOUT', '10s'),
      allowPrivateAddresses: bool(env, 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES', false),
      pauseAfterFailures: int(env, 'WEBHOOK_PAUSE_AFTER_FAILURES', 10, 1, 1000),
      pollIntervalMs: duration(env, 'WEBHOOK_POLL_INTERVAL', '2s'),
    },
    monitoring: {
      batchSize: int(env, 'RESCREEN_BATCH_SIZE', 500, 1, 100_000),
      maxIntervalMs: duration(env, 'RESCREEN_INTERVAL', '24h'),
    },
    audit: { retentionYears: int(env, 'AUDIT_RETENTION_YEARS', 10, 1, 100) },
    batches: {
      concurrency: int(env, 'BATCH_CONCURRENCY', 64, 1, 1024),
      busyConcurrency: int(env, 'BATCH_BUSY_CONCURRENCY', 2, 1, 1024),
      claimSize: int(env, 'BATCH_CLAIM_SIZE', 512, 1, 10_000),
      leaseMs: duration(env, 'BATCH_LEASE', '60s'),
      pollIntervalMs: duration(env, 'BATCH_POLL_INTERVAL', '2s'),
    },
    console: {
      publicUrl: consoleUrl,
      sessionIdleMs: duration(env, 'CONSOLE_SESSION_IDLE', '30m'),
      sessionMaxMs: duration(env, 'CONSOLE_SESSION_MAX', '12h'),
      invitationTtlMs: duration(env, 'CONSOLE_INVITATION_TTL', '72h'),
      signInAccountLimit: int(env, 'CONSOLE_SIGNIN_ACCOUNT_LIMIT', 5, 1, 1000),
      signInAddressLimit: int(env, 'CONSOLE_SIGNIN_ADDRESS_LIMIT', 20, 1, 100_000),
      signInWindowMs: duration(env, 'CONSOLE_SIGNIN_WINDOW', '15m'),
      ssoLoginTtlMs: duration(env, 'CONSOLE_SSO_LOGIN_TTL', '10m'),
      ssoAllowHttp: bool(env, 'CONSOLE_SSO_ALLOW_HTTP', false),
    },
    ops: opsConfig(env, host),
  };
  return deepFreeze(config);
}

function publicUrl(env: Env): { publicUrl?: string } {
  const raw = str(env, 'PUBLIC_URL');
  if (raw === undefined) return {};
  if (!/^https?:\/\/[^\s/]+(\/\S*)?$/.test(raw))
    throw new ConfigError(
      'PUBLIC_URL',
      `must be an http(s) address such as https://screening.example.com, got "${raw}"`,
    );
  return { publicUrl: raw.replace(/\/+$/, '') };
}

/** A 32-byte key as base64 or hex; the secrets module turns it into bytes. */
function secretKeyValue(name: string, raw: string): string {
  const hex = /^[0-9a-f]{64}$/i.test(raw);
  const base64 = /^[A-Za-z0-9+/]{43}=?$/.test(raw);
  if (!hex && !base64)
    throw new ConfigError(
      name,
      'must be 32 bytes as base64 (44 characters) or hex (64 characters); make one with: openssl rand -base64 32',
    );
  return raw;
}

function opsConfig(env: Env, host: string): OpsConfig {
  const metricsPort = str(env, 'METRICS_PORT') === undefined ? undefined : int(env, 'METRICS_PORT', 0, 1, 65535);
  const metricsToken = str(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16)
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');
  const secretKey = str(env, 'SECRET_KEY');
  const previous = (str(env, 'SECRET_KEY_PREVIOUS') ?? '').split(/[\s,]+/).filter(Boolean);
  if (previous.length > 0 && secretKey === undefined)
    throw new ConfigError('SECRET_KEY_PREVIOUS', 'needs SECRET_KEY (the key to encrypt under)');
  return {
    ...(metricsPort !== undefined ? { metricsPort } : {}),
    metricsHost: str(env, 'METRICS_HOST') ?? host,
    ...(metricsToken !== undefined ? { metricsToken } : {}),
    shutdownTimeoutMs: duration(env, 'SHUTDOWN_TIMEOUT', '30s'),
    ...(secretKey !== undefined ? { secretKey: secretKeyValue('SECRET_KEY', secretKey) } : {}),
    previousSecretKeys: previous.map((k) => secretKeyValue('SECRET_KEY_PREVIOUS', k)),
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
