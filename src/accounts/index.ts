/**
 * Console sign-in: invitations, passwords, sessions, single sign-on.
 * This face is how other domains and the layers above import accounts/ (eslint.config.js, docs/architecture.md).
 */
export { accountsService } from './accounts-service.js';
export type { AccountsService, SessionView } from './accounts-service.js';
export { MIN_PASSWORD_LENGTH, newToken } from './passwords.js';
export { rotateSsoSecrets } from './sso-secrets.js';
export { CALLBACK_PATH, SsoRefused, ssoService } from './sso-service.js';
export type { SsoService, SsoSettingsView } from './sso-service.js';
