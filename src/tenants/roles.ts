import { validationError } from '../infra/errors.js';

/**
 * The roles of a membership (issue 16). Each role holds the permissions of the ones below it:
 * an auditor reads everything and changes nothing; an analyst also works (screens, monitors,
 * resolves and decides alerts, runs batches); an admin also administers (settings, API keys,
 * webhook, users and roles). Memberships made before roles existed were migrated to admin.
 */
export const ROLES = ['admin', 'analyst', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

export type Permission = 'read' | 'work' | 'administer';

const GRANTS: Record<Role, readonly Permission[]> = {
  auditor: ['read'],
  analyst: ['read', 'work'],
  admin: ['read', 'work', 'administer'],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function checkRole(value: string): Role {
  if (!isRole(value)) throw validationError('role', `must be one of ${ROLES.join(', ')}`);
  return value;
}

/** An unknown stored role grants nothing. */
export function can(role: string, permission: Permission): boolean {
  return isRole(role) && GRANTS[role].includes(permission);
}
