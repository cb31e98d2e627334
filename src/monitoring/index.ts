/**
 * Monitoring: monitors, rescreening, alerts and their rules.
 * This face is how other domains and the layers above import monitoring/ (eslint.config.js, docs/architecture.md).
 */
export { alertDecisionTarget, alertsService } from './alerts-service.js';
export type { AlertsService } from './alerts-service.js';
export {
  CreateMonitorRequest,
  ListMonitorsQuery,
  MONITOR_SCHEMAS,
  MonitorCreated,
  MonitorItem,
  MonitorRemoved,
} from './monitor-schemas.js';
export type { ListMonitorsQueryType } from './monitor-schemas.js';
export { monitorService } from './monitor-service.js';
export type { MonitorService } from './monitor-service.js';
export { MonitorStore } from './monitor-store.js';
export { monitoredSearches } from './monitored-searches.js';
export { Rescreener } from './rescreen-service.js';
