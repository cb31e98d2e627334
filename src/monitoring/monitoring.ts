import type { Clock } from '../infra/clock.js';
import type { Config } from '../infra/config.js';
import type { DatabaseHandle } from '../infra/database.js';
import type { ListRuntime } from '../lists/list-runtime.js';
import type { Screener } from '../screening/screening-service.js';
import type { Caller } from '../tenants/auth.js';
import { DeliveryWorker, type DeliveryWorkerDeps } from '../webhooks/delivery-worker.js';
import type { CreateMonitorBody } from './monitor-schemas.js';
import { createMonitor, listMonitors, removeMonitor } from './monitor-service.js';
import { Rescreener } from './rescreen-service.js';

/** What monitoring needs of the application context (the composition root in src/start). */
export interface MonitoringHost {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  runtime: ListRuntime<Screener>;
  nodeId: string;
}

export type MonitoringLog = (
  level: 'info' | 'warn' | 'error',
  message: string,
  detail?: Record<string, unknown>,
) => void;

export interface Monitoring {
  /** The monitors endpoints (implements the routes' MonitorApi). */
  api: {
    create(caller: Caller, body: CreateMonitorBody): Promise<Record<string, unknown>>;
    list(
      caller: Caller,
      query: { page: number; pageSize: number },
    ): Promise<{ items: Record<string, unknown>[]; total: number }>;
    remove(caller: Caller, id: string): Promise<{ id: string; removed: true }>;
  };
  rescreener: Rescreener;
  worker: DeliveryWorker;
  /** Background work of `sanctions serve`: rescreen on every list change and on a timer; send webhooks. */
  start(log?: MonitoringLog): void;
  stop(): Promise<void>;
}

const instances = new WeakMap<MonitoringHost, Monitoring>();

/** One monitoring instance per application context, shared by the HTTP app and the background jobs. */
export function monitoringFor(host: MonitoringHost): Monitoring {
  const existing = instances.get(host);
  if (existing) return existing;
  let log: MonitoringLog | undefined;
  const logger: MonitoringLog = (level, message, detail) => log?.(level, message, detail);
  let started = false;
  const workerDeps: DeliveryWorkerDeps = {
    database: host.database,
    clock: host.clock,
    config: host.config.webhooks,
    nodeId: host.nodeId,
    log: logger,
  };
  const worker = new DeliveryWorker(workerDeps);
  const rescreener = new Rescreener({
    database: host.database,
    clock: host.clock,
    matching: host.config.matching,
    monitoring: host.config.monitoring,
    nodeId: host.nodeId,
    lists: () => host.runtime.current(),
    onDeliveries: () => {
      if (started) worker.kick();
    },
    log: logger,
  });
  const deps = {
    db: host.database.db,
    clock: host.clock,
    onCreated: () => {
      if (started) rescreener.kick();
    },
  };
  const monitoring: Monitoring = {
    api: {
      create: (caller, body) => createMonitor(deps, caller, body),
      list: (caller, query) => listMonitors(deps, caller, query),
      remove: (caller, id) => removeMonitor(deps, caller, id),
    },
    rescreener,
    worker,
    start(withLog) {
      if (started) return;
      started = true;
      log = withLog;
      host.runtime.onChange(() => {
        if (started) rescreener.kick();
      });
      rescreener.start();
      worker.start();
    },
    async stop() {
      started = false;
      await Promise.all([rescreener.stop(), worker.stop()]);
    },
  };
  instances.set(host, monitoring);
  return monitoring;
}
