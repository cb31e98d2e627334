import { createPrivateKey } from 'node:crypto';
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
  /** Send a `Server-Timing` header with each POST /screen's stages (docs/latency.md); off by default. */
  serverTiming: boolean;
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
  /** How often each source is checked for a new version (conditional request), in ms; 0: not polled. */
  pollIntervalMs: number;
  /** Per-source poll intervals overriding pollIntervalMs (0: that source is not polled). */
  pollIntervals: Record<string, number>;
  /** First wait after a failed check, in ms; it doubles with each failure in a row, with jitter. */
  pollBackoffMs: number;
  /** Longest wait after failed checks, in ms. */
  pollBackoffMaxMs: number;
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
  /**
   * How long a node's claim on rescreen work outlives its silence, in ms: on PostgreSQL a claimed
   * batch, on SQLite the pass lease. A node that dies or hangs mid-batch leaves its work to another
   * node after it.
   */
  claimTimeoutMs: number;
}

export interface AuditConfig {
  /**
   * Years an audit entry is kept at least (31 CFR 501.601: ten years since March 2025). Nothing
   * younger is ever deleted; `sanctions audit prune` deletes what is older.
   */
  retentionYears: number;
  /** How often, in ms, the entries written since the last seal are placed in their chains and sealed. */
  sealIntervalMs: number;
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

/** Counters shared by the nodes of a deployment (docs/multi-node.md): per-key limits and monthly quotas. */
export interface RedisConfig {
  /** redis:// or rediss:// address. */
  url: string;
  /** Prefix of every key the service writes (several deployments, or tests, can share one Redis). */
  keyPrefix: string;
  /**
   * After Redis lost its counts (a restart), how long a monthly quota waits before it is rebuilt from
   * the database: a screening whose unit was taken before the loss commits within half of it or fails.
   */
  quotaSettleMs: number;
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

/** Validation reports (issue 31). */
export interface ValidationConfig {
  /** Ed25519 private key (PKCS #8 DER, base64) that signs validation reports; unset: reports cannot be made. */
  signingKey?: string;
  /** Listed names self-screened by the quick run recorded after every list activation; 0 turns it off. */
  activationSample: number;
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
  /** Set (REDIS_URL): the limits and quotas are counted in Redis; unset: in process (SQLite) or in the database. */
  redis?: RedisConfig;
  validation: ValidationConfig;
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

/**
 * The configuration schema: every environment variable the service reads, with its default, its
 * range and what it does. loadConfig takes defaults and ranges from here (nothing is repeated at the
 * call sites), and docs/configuration.md is rendered from it (`npm run docs`), so the code and the page
 * cannot disagree.
 */
export interface ConfigVariable {
  name: string;
  /** The docs page's section. */
  group: string;
  kind: 'choice' | 'text' | 'path' | 'url' | 'integer' | 'number' | 'boolean' | 'duration' | 'durations' | 'secret';
  /** The value used when the variable is unset (absent: unset means off or "none"). */
  default?: string | number | boolean;
  /** Said instead of `default` when the default is computed at start-up. */
  defaultText?: string;
  min?: number;
  max?: number;
  values?: readonly string[];
  description: string;
}

const declareVariables = <T extends readonly ConfigVariable[]>(variables: T): T => variables;

export const CONFIG_VARIABLES = declareVariables([
  {
    name: 'NODE_ENV',
    group: 'Server',
    kind: 'choice',
    default: 'production',
    values: ['production', 'development', 'test'],
    description: 'Run mode.',
  },
  {
    name: 'LOG_LEVEL',
    group: 'Server',
    kind: 'choice',
    default: 'info',
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    description: 'Least severe log level written (JSON lines on stdout); `debug` also logs every request.',
  },
  {
    name: 'HOST',
    group: 'Server',
    kind: 'text',
    default: '127.0.0.1',
    description: 'Address the HTTP API listens on; `0.0.0.0` for every interface.',
  },
  {
    name: 'PORT',
    group: 'Server',
    kind: 'integer',
    default: 8080,
    min: 0,
    max: 65535,
    description: 'Port of the HTTP API (0: any free port).',
  },
  {
    name: 'PUBLIC_URL',
    group: 'Server',
    kind: 'url',
    description:
      'Address clients reach the service at: the OpenAPI servers entry and the links the console and the command line print. Unset: the OpenAPI document is relative, links use HOST and PORT.',
  },
  {
    name: 'TRUST_PROXY',
    group: 'Server',
    kind: 'boolean',
    default: false,
    description:
      'Take the client address from X-Forwarded-For (behind a reverse proxy); it keys the per-address limits.',
  },
  {
    name: 'SHUTDOWN_TIMEOUT',
    group: 'Server',
    kind: 'duration',
    default: '30s',
    description:
      'Longest drain after SIGTERM (requests under way, jobs, leases) before the process gives up and exits 1.',
  },
  {
    name: 'DATA_DIR',
    group: 'Storage',
    kind: 'path',
    default: './data',
    description: 'Folder for the SQLite database, its server lock and downloaded list files; created when missing.',
  },
  {
    name: 'DATABASE_URL',
    group: 'Storage',
    kind: 'url',
    description:
      'Unset: SQLite at DATA_DIR/sanctions.db. `postgres://...` (optionally `?schema=name`) for PostgreSQL and several nodes; `sqlite:/path/file.db` for SQLite elsewhere.',
  },
  {
    name: 'SQLITE_SYNCHRONOUS',
    group: 'Storage',
    kind: 'choice',
    default: 'FULL',
    values: ['FULL', 'NORMAL'],
    description:
      'FULL: an acknowledged write survives power loss; NORMAL: faster, may lose the last commits on power loss (never on a process crash).',
  },
  {
    name: 'DATABASE_POOL_SIZE',
    group: 'Storage',
    kind: 'integer',
    default: 10,
    min: 1,
    max: 200,
    description: 'PostgreSQL connections per node.',
  },
  {
    name: 'RATE_LIMIT_PER_MINUTE',
    group: 'Limits',
    kind: 'integer',
    default: 60,
    min: 1,
    max: 10_000_000,
    description: 'Requests per API key per minute (api-v1.md section 5).',
  },
  {
    name: 'AUTH_FAILURE_LIMIT_PER_MINUTE',
    group: 'Limits',
    kind: 'integer',
    default: 30,
    min: 1,
    max: 10_000_000,
    description: 'Requests without a valid key (missing, unknown, revoked, expired), per client address per minute.',
  },
  {
    name: 'PUBLIC_RATE_LIMIT_PER_MINUTE',
    group: 'Limits',
    kind: 'integer',
    default: 600,
    min: 1,
    max: 10_000_000,
    description: 'Requests to the public routes (/health, /openapi.json, /docs) per client address per minute.',
  },
  {
    name: 'LISTS_DIR',
    group: 'Lists',
    kind: 'path',
    description:
      'Offline source of list files, one sub-folder per source id, files named as the publishers name them. Unset: download from the publishers.',
  },
  {
    name: 'LIST_SYNC_TIME',
    group: 'Lists',
    kind: 'text',
    default: '04:00',
    description: 'Daily refresh time, HH:MM in UTC.',
  },
  {
    name: 'LIST_SYNC_ON_START',
    group: 'Lists',
    kind: 'boolean',
    default: true,
    description: 'Sync, in the background at start-up, every source that has no good version yet.',
  },
  {
    name: 'LIST_RELOAD_INTERVAL',
    group: 'Lists',
    kind: 'duration',
    default: '30s',
    description: 'How often a node looks in the database for list versions newer than the ones it has loaded.',
  },
  {
    name: 'LIST_STALE_AFTER',
    group: 'Lists',
    kind: 'duration',
    default: '48h',
    description: 'A source with no good sync for this long is reported stale.',
  },
  {
    name: 'LIST_HTTP_TIMEOUT',
    group: 'Lists',
    kind: 'duration',
    default: '120s',
    description: 'Timeout of one download from a publisher.',
  },
  {
    name: 'LIST_HTTP_RETRIES',
    group: 'Lists',
    kind: 'integer',
    default: 3,
    min: 0,
    max: 10,
    description: 'Retries of a failed download.',
  },
  {
    name: 'LIST_URLS',
    group: 'Lists',
    kind: 'text',
    description: 'Overrides of publisher addresses: `source:FILE=https://...` pairs separated by commas or spaces.',
  },
  {
    name: 'LIST_MIN_RECORD_RATIO',
    group: 'Lists',
    kind: 'number',
    default: 0.8,
    min: 0,
    max: 1,
    description:
      "A new version with fewer than this share of the current version's records is rejected (a truncated file).",
  },
  {
    name: 'OWNERSHIP_DIR',
    group: 'Lists',
    kind: 'path',
    description:
      'Ownership data (GLEIF LEI-CDF and RR-CDF files, stakes CSV) for the derived source `us_ofac_50`. Unset: no derived source.',
  },
  {
    name: 'MATCH_FLOOR',
    group: 'Matching',
    kind: 'number',
    default: 50,
    min: 0,
    max: 100,
    description: 'Matches with a matchScore below this are not reported.',
  },
  {
    name: 'MATCH_MAX_RESULTS',
    group: 'Matching',
    kind: 'integer',
    default: 10,
    min: 1,
    max: 100,
    description: 'Most matches reported per screening.',
  },
  {
    name: 'MATCH_THREADS',
    group: 'Matching',
    kind: 'integer',
    defaultText: '1 on a machine with two cores or more, else 0',
    min: 0,
    max: 32,
    description:
      'Worker threads that hold the matching index and score screenings (each its own copy of the index); 0 scores on the main thread. A rescreen pass uses them all: a node that monitors many customers rescreens faster with one per core.',
  },
  {
    name: 'WEBHOOK_RETRY_DELAYS',
    group: 'Webhooks and monitoring',
    kind: 'durations',
    default: '1m,5m,15m,1h,4h',
    description: 'Delays between delivery attempts of one event.',
  },
  {
    name: 'WEBHOOK_TIMEOUT',
    group: 'Webhooks and monitoring',
    kind: 'duration',
    default: '10s',
    description: 'Timeout of one delivery attempt.',
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES',
    group: 'Webhooks and monitoring',
    kind: 'boolean',
    default: false,
    description:
      'Allow webhook URLs that resolve to private, loopback or link-local addresses (off: refused, against SSRF).',
  },
  {
    name: 'WEBHOOK_PAUSE_AFTER_FAILURES',
    group: 'Webhooks and monitoring',
    kind: 'integer',
    default: 10,
    min: 1,
    max: 1000,
    description: "Consecutive failed attempts that pause an organization's webhook (api-v1.md 6.4).",
  },
  {
    name: 'WEBHOOK_POLL_INTERVAL',
    group: 'Webhooks and monitoring',
    kind: 'duration',
    default: '2s',
    description: 'How often the delivery worker looks for due deliveries.',
  },
  {
    name: 'RESCREEN_BATCH_SIZE',
    group: 'Webhooks and monitoring',
    kind: 'integer',
    default: 500,
    min: 1,
    max: 100_000,
    description: 'Monitors rescreened per round.',
  },
  {
    name: 'RESCREEN_INTERVAL',
    group: 'Webhooks and monitoring',
    kind: 'duration',
    default: '24h',
    description: 'Every monitor is rescreened at least this often (and after every list change).',
  },
  {
    name: 'RESCREEN_CLAIM_TIMEOUT',
    group: 'Webhooks and monitoring',
    kind: 'duration',
    default: '2m',
    description:
      'How long a node that hangs or dies mid-rescreen keeps its work: on PostgreSQL a claimed batch (the database ends the silent session), on SQLite the pass lease. Another node takes the work over after it; no alert is raised twice.',
  },
  {
    name: 'AUDIT_RETENTION_YEARS',
    group: 'Audit',
    kind: 'integer',
    default: 10,
    min: 1,
    max: 100,
    description:
      'Years an audit entry is kept at least (31 CFR 501.601); `sanctions audit prune` deletes only what is older.',
  },
  {
    name: 'AUDIT_SEAL_INTERVAL',
    group: 'Audit',
    kind: 'duration',
    default: '1s',
    description:
      'How often the audit entries written since the last seal are placed in their chains and sealed (one node at a time).',
  },
  {
    name: 'BATCH_CONCURRENCY',
    group: 'Batches',
    kind: 'integer',
    default: 64,
    min: 1,
    max: 1024,
    description: 'Batch rows in flight at once on one node while no interactive request is under way.',
  },
  {
    name: 'BATCH_BUSY_CONCURRENCY',
    group: 'Batches',
    kind: 'integer',
    default: 2,
    min: 1,
    max: 1024,
    description: 'Batch rows in flight at once on one node while interactive requests are under way.',
  },
  {
    name: 'BATCH_CLAIM_SIZE',
    group: 'Batches',
    kind: 'integer',
    default: 512,
    min: 1,
    max: 10_000,
    description: 'Rows one claim takes.',
  },
  {
    name: 'BATCH_LEASE',
    group: 'Batches',
    kind: 'duration',
    default: '60s',
    description: 'How long a claim holds before another node may take the rows.',
  },
  {
    name: 'BATCH_POLL_INTERVAL',
    group: 'Batches',
    kind: 'duration',
    default: '2s',
    description: 'How often a node looks for batch rows to run.',
  },
  {
    name: 'CONSOLE_SESSION_IDLE',
    group: 'Console',
    kind: 'duration',
    default: '30m',
    description: 'A console session unused this long ends.',
  },
  {
    name: 'CONSOLE_SESSION_MAX',
    group: 'Console',
    kind: 'duration',
    default: '12h',
    description: 'A console session ends this long after sign-in whatever its use.',
  },
  {
    name: 'CONSOLE_INVITATION_TTL',
    group: 'Console',
    kind: 'duration',
    default: '72h',
    description: 'Invitation and password-reset links expire after this long.',
  },
  {
    name: 'CONSOLE_SIGNIN_ACCOUNT_LIMIT',
    group: 'Console',
    kind: 'integer',
    default: 5,
    min: 1,
    max: 1000,
    description: 'Failed sign-ins per account within the window before sign-in is refused.',
  },
  {
    name: 'CONSOLE_SIGNIN_ADDRESS_LIMIT',
    group: 'Console',
    kind: 'integer',
    default: 20,
    min: 1,
    max: 100_000,
    description: 'Failed sign-ins per client address within the window before sign-in is refused.',
  },
  {
    name: 'CONSOLE_SIGNIN_WINDOW',
    group: 'Console',
    kind: 'duration',
    default: '15m',
    description: 'The window of the two sign-in limits.',
  },
  {
    name: 'METRICS_PORT',
    group: 'Operations',
    kind: 'integer',
    min: 1,
    max: 65535,
    description:
      'Serve /metrics (Prometheus) on this port, a listener of its own on METRICS_HOST. Unset: not on a port of its own.',
  },
  {
    name: 'METRICS_HOST',
    group: 'Operations',
    kind: 'text',
    defaultText: 'HOST',
    description: 'Address of the metrics listener.',
  },
  {
    name: 'METRICS_TOKEN',
    group: 'Operations',
    kind: 'secret',
    min: 16,
    description:
      'Bearer token for /metrics (at least 16 characters). Without METRICS_PORT, /metrics is served on the API port only when this is set.',
  },
  {
    name: 'SECRET_KEY',
    group: 'Operations',
    kind: 'secret',
    description:
      '32 bytes as base64 (44 characters) or hex (64): encrypts webhook secrets at rest. Make one with `openssl rand -base64 32`.',
  },
  {
    name: 'SECRET_KEY_PREVIOUS',
    group: 'Operations',
    kind: 'secret',
    description:
      'Earlier keys, comma-separated, still able to decrypt while `sanctions secrets rotate` re-encrypts under SECRET_KEY.',
  },
  {
    name: 'SERVER_TIMING',
    group: 'Server',
    kind: 'boolean',
    default: false,
    description: "Send a `Server-Timing` header with each POST /screen's stages (docs/latency.md).",
  },
  {
    name: 'REDIS_URL',
    group: 'Limits',
    kind: 'url',
    description:
      'redis:// or rediss:// address. Set: the per-key rate limit and the monthly quotas are counted in Redis, exact across nodes (docs/multi-node.md); unset: in process (SQLite) or in the database (PostgreSQL).',
  },
  {
    name: 'REDIS_KEY_PREFIX',
    group: 'Limits',
    kind: 'text',
    default: 'sanctions:',
    description: 'Prefix of every Redis key the service writes, so several deployments (or tests) can share one Redis.',
  },
  {
    name: 'REDIS_QUOTA_SETTLE',
    group: 'Limits',
    kind: 'duration',
    default: '10s',
    description:
      'After Redis lost its counts (a restart), how long a monthly quota waits before it is rebuilt from the durable usage in the database.',
  },
  {
    name: 'LIST_POLL_INTERVAL',
    group: 'Lists',
    kind: 'duration',
    default: '10m',
    description:
      'How often each source is checked for a new version with a conditional request (at least 1m; 0 turns polling off). The daily sync at LIST_SYNC_TIME stays as a safety net (docs/list-updates.md).',
  },
  {
    name: 'LIST_POLL_INTERVALS',
    group: 'Lists',
    kind: 'text',
    description: 'Per-source overrides of LIST_POLL_INTERVAL: `source=duration` pairs, e.g. `us_ofac=2m,eu_csl=5m`.',
  },
  {
    name: 'LIST_POLL_BACKOFF',
    group: 'Lists',
    kind: 'duration',
    default: '1m',
    description: 'First wait after a failed check; doubled (with jitter) after each further failure.',
  },
  {
    name: 'LIST_POLL_BACKOFF_MAX',
    group: 'Lists',
    kind: 'duration',
    default: '1h',
    description: 'Longest wait between checks of a failing source.',
  },
  {
    name: 'VALIDATION_SIGNING_KEY',
    group: 'Operations',
    kind: 'secret',
    description:
      'Ed25519 private key (PKCS #8 DER, base64) that signs validation reports (docs/validation.md); make one with `sanctions validate keygen`. Unset: a run through the API fails, and no quick run is recorded at list activation.',
  },
  {
    name: 'VALIDATION_ACTIVATION_SAMPLE',
    group: 'Operations',
    kind: 'integer',
    default: 500,
    min: 0,
    max: 1_000_000,
    description:
      'Listed names of unchanged entries self-screened, beside the new and changed ones, by the quick validation run recorded at each list activation.',
  },
  {
    name: 'CONSOLE_SSO_LOGIN_TTL',
    group: 'Console',
    kind: 'duration',
    default: '10m',
    description:
      "How long a console sign-in through the organization's identity provider may take, from the redirect to the callback (its state, nonce and PKCE verifier expire then).",
  },
  {
    name: 'CONSOLE_SSO_ALLOW_HTTP',
    group: 'Console',
    kind: 'boolean',
    default: false,
    description:
      'Accept an OpenID Connect issuer on plain http (tests and local providers only); otherwise issuers must be https.',
  },
] as const);

export type ConfigVariableName = (typeof CONFIG_VARIABLES)[number]['name'];

const VARIABLES = new Map<string, ConfigVariable>(CONFIG_VARIABLES.map((v) => [v.name, v]));

function spec(name: ConfigVariableName): ConfigVariable {
  return VARIABLES.get(name) as ConfigVariable;
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: ConfigVariableName): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The schema's default of a text-like variable. */
function textDefault(name: ConfigVariableName): string {
  return String(spec(name).default);
}

function int(env: Env, name: ConfigVariableName, fallback = spec(name).default as number): number {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = spec(name);
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function num(env: Env, name: ConfigVariableName): number {
  const { min = 0, max = Number.MAX_VALUE } = spec(name);
  const raw = str(env, name);
  if (raw === undefined) return spec(name).default as number;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new ConfigError(name, `must be a number, got "${raw}"`);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: ConfigVariableName): boolean {
  const raw = str(env, name);
  if (raw === undefined) return spec(name).default as boolean;
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

function duration(env: Env, name: ConfigVariableName): number {
  const raw = str(env, name) ?? textDefault(name);
  const ms = parseDuration(raw);
  if (ms === undefined || ms <= 0)
    throw new ConfigError(name, `must be a duration such as 10s, 5m or 1h, got "${raw}"`);
  return ms;
}

function durations(env: Env, name: ConfigVariableName): number[] {
  const raw = str(env, name) ?? textDefault(name);
  const parts = raw.split(',').map((p) => p.trim());
  const values = parts.map((p) => parseDuration(p));
  if (parts.length === 0 || values.some((v) => v === undefined || v <= 0)) {
    throw new ConfigError(name, `must be a comma-separated list of durations such as 1m,5m,15m, got "${raw}"`);
  }
  return values as number[];
}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const nodeEnv = str(env, 'NODE_ENV') ?? textDefault('NODE_ENV');
  if (nodeEnv !== 'production' && nodeEnv !== 'development' && nodeEnv !== 'test') {
    throw new ConfigError('NODE_ENV', `must be production, development or test, got "${nodeEnv}"`);
  }
  const logLevel = (str(env, 'LOG_LEVEL') ?? textDefault('LOG_LEVEL')).toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);

  const dataDir = resolve(str(env, 'DATA_DIR') ?? textDefault('DATA_DIR'));
  const databaseUrl = str(env, 'DATABASE_URL');
  let database: DatabaseConfig;
  const sqliteSynchronous = (str(env, 'SQLITE_SYNCHRONOUS') ?? textDefault('SQLITE_SYNCHRONOUS')).toUpperCase();
  if (sqliteSynchronous !== 'FULL' && sqliteSynchronous !== 'NORMAL') {
    throw new ConfigError('SQLITE_SYNCHRONOUS', 'must be FULL or NORMAL');
  }
  const poolSize = int(env, 'DATABASE_POOL_SIZE');
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

  const host = str(env, 'HOST') ?? textDefault('HOST');
  const syncTime = str(env, 'LIST_SYNC_TIME') ?? textDefault('LIST_SYNC_TIME');
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

  const port = int(env, 'PORT');
  // PUBLIC_URL, checked once (publicUrl below): the OpenAPI servers entry is relative without it;
  // console links need an absolute address, so they fall back to this host and port.
  const publicHttp = publicUrl(env);
  const consoleUrl =
    publicHttp.publicUrl ?? `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;

  const listsDir = str(env, 'LISTS_DIR');
  const ownershipDir = str(env, 'OWNERSHIP_DIR');
  const redisUrl = str(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl))
    throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  const redisPrefix = str(env, 'REDIS_KEY_PREFIX') ?? textDefault('REDIS_KEY_PREFIX');
  if (!/^[\w:.-]{1,100}$/.test(redisPrefix))
    throw new ConfigError('REDIS_KEY_PREFIX', 'must be 1 to 100 letters, digits, _, :, . or -');
  const redis: RedisConfig | undefined = redisUrl
    ? { url: redisUrl, keyPrefix: redisPrefix, quotaSettleMs: duration(env, 'REDIS_QUOTA_SETTLE') }
    : undefined;
  const config: Config = {
    ...(redis ? { redis } : {}),
    env: nodeEnv,
    logLevel,
    dataDir,
    database,
    http: {
      host,
      port,
      rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE'),
      authFailureLimitPerMinute: int(env, 'AUTH_FAILURE_LIMIT_PER_MINUTE'),
      publicRateLimitPerMinute: int(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE'),
      trustProxy: bool(env, 'TRUST_PROXY'),
      serverTiming: bool(env, 'SERVER_TIMING'),
      ...publicHttp,
    },
    lists: {
      ...(listsDir ? { dir: resolve(listsDir) } : {}),
      downloadDir: resolve(dataDir, 'downloads'),
      syncTime,
      syncOnStart: bool(env, 'LIST_SYNC_ON_START'),
      reloadIntervalMs: duration(env, 'LIST_RELOAD_INTERVAL'),
      staleAfterMs: duration(env, 'LIST_STALE_AFTER'),
      httpTimeoutMs: duration(env, 'LIST_HTTP_TIMEOUT'),
      httpRetries: int(env, 'LIST_HTTP_RETRIES'),
      urlOverrides,
      minRecordRatio: num(env, 'LIST_MIN_RECORD_RATIO'),
      ...pollConfig(env),
    },
    ownership: ownershipDir ? { dir: resolve(ownershipDir) } : {},
    matching: {
      floor: num(env, 'MATCH_FLOOR'),
      maxMatches: int(env, 'MATCH_MAX_RESULTS'),
      // One matching thread beside the HTTP thread when there is a second core for it.
      threads: int(env, 'MATCH_THREADS', availableParallelism() > 1 ? 1 : 0),
    },
    webhooks: {
      retryDelaysMs: durations(env, 'WEBHOOK_RETRY_DELAYS'),
      timeoutMs: duration(env, 'WEBHOOK_TIMEOUT'),
      allowPrivateAddresses: bool(env, 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES'),
      pauseAfterFailures: int(env, 'WEBHOOK_PAUSE_AFTER_FAILURES'),
      pollIntervalMs: duration(env, 'WEBHOOK_POLL_INTERVAL'),
    },
    monitoring: {
      batchSize: int(env, 'RESCREEN_BATCH_SIZE'),
      maxIntervalMs: duration(env, 'RESCREEN_INTERVAL'),
      claimTimeoutMs: duration(env, 'RESCREEN_CLAIM_TIMEOUT'),
    },
    audit: { retentionYears: int(env, 'AUDIT_RETENTION_YEARS'), sealIntervalMs: duration(env, 'AUDIT_SEAL_INTERVAL') },
    batches: {
      concurrency: int(env, 'BATCH_CONCURRENCY'),
      busyConcurrency: int(env, 'BATCH_BUSY_CONCURRENCY'),
      claimSize: int(env, 'BATCH_CLAIM_SIZE'),
      leaseMs: duration(env, 'BATCH_LEASE'),
      pollIntervalMs: duration(env, 'BATCH_POLL_INTERVAL'),
    },
    console: {
      publicUrl: consoleUrl,
      sessionIdleMs: duration(env, 'CONSOLE_SESSION_IDLE'),
      sessionMaxMs: duration(env, 'CONSOLE_SESSION_MAX'),
      invitationTtlMs: duration(env, 'CONSOLE_INVITATION_TTL'),
      signInAccountLimit: int(env, 'CONSOLE_SIGNIN_ACCOUNT_LIMIT'),
      signInAddressLimit: int(env, 'CONSOLE_SIGNIN_ADDRESS_LIMIT'),
      signInWindowMs: duration(env, 'CONSOLE_SIGNIN_WINDOW'),
      ssoLoginTtlMs: duration(env, 'CONSOLE_SSO_LOGIN_TTL'),
      ssoAllowHttp: bool(env, 'CONSOLE_SSO_ALLOW_HTTP'),
    },
    ops: opsConfig(env, host),
    validation: validationConfig(env),
  };
  return deepFreeze(config);
}

/** The shortest poll interval: the publishers' servers are asked at most once a minute (issue 30). */
const MIN_POLL_MS = 60_000;

function pollInterval(name: string, raw: string): number {
  if (/^(off|0)$/i.test(raw)) return 0;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < MIN_POLL_MS)
    throw new ConfigError(name, `must be a duration of at least 1m (such as 10m or 1h) or off, got "${raw}"`);
  return ms;
}

const POLLED_SOURCES = ['us_ofac', 'us_csl', 'eu_csl', 'uk_csl', 'un_csl', 'au_dfat', 'ch_seco', 'ca_gac', 'jp_mof'];

/** LIST_POLL_INTERVAL (every source) and LIST_POLL_INTERVALS (`source=duration` pairs that override it). */
function pollConfig(env: Env) {
  const pollIntervalMs = pollInterval(
    'LIST_POLL_INTERVAL',
    str(env, 'LIST_POLL_INTERVAL') ?? textDefault('LIST_POLL_INTERVAL'),
  );
  const pollIntervals: Record<string, number> = {};
  for (const pair of (str(env, 'LIST_POLL_INTERVALS') ?? '').split(/[\s,]+/).filter(Boolean)) {
    const match = /^([a-z_]+)=(\S+)$/.exec(pair);
    if (!match || !POLLED_SOURCES.includes(match[1] as string))
      throw new ConfigError(
        'LIST_POLL_INTERVALS',
        `entry "${pair}" must look like source=duration with a source among ${POLLED_SOURCES.join(', ')}`,
      );
    pollIntervals[match[1] as string] = pollInterval('LIST_POLL_INTERVALS', match[2] as string);
  }
  const pollBackoffMs = duration(env, 'LIST_POLL_BACKOFF');
  const pollBackoffMaxMs = duration(env, 'LIST_POLL_BACKOFF_MAX');
  if (pollBackoffMaxMs < pollBackoffMs)
    throw new ConfigError('LIST_POLL_BACKOFF_MAX', 'must not be shorter than LIST_POLL_BACKOFF');
  return { pollIntervalMs, pollIntervals, pollBackoffMs, pollBackoffMaxMs };
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
function secretKeyValue(name: ConfigVariableName, raw: string): string {
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
  const metricsPort = str(env, 'METRICS_PORT') === undefined ? undefined : int(env, 'METRICS_PORT');
  const metricsToken = str(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < (spec('METRICS_TOKEN').min as number))
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');
  const secretKey = str(env, 'SECRET_KEY');
  const previous = (str(env, 'SECRET_KEY_PREVIOUS') ?? '').split(/[\s,]+/).filter(Boolean);
  if (previous.length > 0 && secretKey === undefined)
    throw new ConfigError('SECRET_KEY_PREVIOUS', 'needs SECRET_KEY (the key to encrypt under)');
  return {
    ...(metricsPort !== undefined ? { metricsPort } : {}),
    metricsHost: str(env, 'METRICS_HOST') ?? host,
    ...(metricsToken !== undefined ? { metricsToken } : {}),
    shutdownTimeoutMs: duration(env, 'SHUTDOWN_TIMEOUT'),
    ...(secretKey !== undefined ? { secretKey: secretKeyValue('SECRET_KEY', secretKey) } : {}),
    previousSecretKeys: previous.map((k) => secretKeyValue('SECRET_KEY_PREVIOUS', k)),
  };
}

function validationConfig(env: Env): ValidationConfig {
  const signingKey = str(env, 'VALIDATION_SIGNING_KEY');
  if (signingKey !== undefined) {
    let type: string | undefined;
    try {
      type = createPrivateKey({
        key: Buffer.from(signingKey, 'base64'),
        format: 'der',
        type: 'pkcs8',
      }).asymmetricKeyType;
    } catch {
      type = undefined;
    }
    if (type !== 'ed25519')
      throw new ConfigError(
        'VALIDATION_SIGNING_KEY',
        'must be an Ed25519 private key (PKCS #8 DER, base64); make one with: sanctions validate keygen',
      );
  }
  return {
    ...(signingKey !== undefined ? { signingKey } : {}),
    activationSample: int(env, 'VALIDATION_ACTIVATION_SAMPLE'),
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
