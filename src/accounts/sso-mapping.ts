import { validationError } from '../infra/errors.js';
import type { Role } from '../tenants/index.js';

/**
 * What single sign-on decides from an ID token's claims, without I/O: whether the email is one the
 * organization accepts, and which role its groups map to. Declared here so the rules read in one place.
 */

/** The groups that map to each role; a user in several gets the strongest. */
export interface RoleMapping {
  claim: string;
  admin: string | null;
  analyst: string | null;
  auditor: string | null;
}

/** Strongest first: a user in the admin group and the auditor group is an admin. */
const ORDER = ['admin', 'analyst', 'auditor'] as const satisfies readonly Role[];

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CLAIM = /^[A-Za-z0-9_:./-]{1,100}$/;

/** `bank.example, Subsidiary.example` -> ['bank.example', 'subsidiary.example']; at least one. */
export function parseDomains(raw: string | readonly string[]): string[] {
  const parts = (typeof raw === 'string' ? raw.split(/[\s,]+/) : raw)
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);
  if (parts.length === 0) throw validationError('domains', 'give at least one email domain, such as bank.example');
  for (const domain of parts)
    if (!DOMAIN.test(domain)) throw validationError('domains', `"${domain}" is not a domain name`);
  return [...new Set(parts)];
}

export function checkClaimName(value: string): string {
  const claim = value.trim();
  if (!CLAIM.test(claim))
    throw validationError('role-claim', 'must be a claim name of letters, digits and _ : . / - (such as groups)');
  return claim;
}

/** The issuer as a URL: https, or http when the operator allows it (a provider on loopback). */
export function checkIssuer(value: string, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw validationError('issuer', 'is not a URL (such as https://login.example.com/realms/bank)');
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:'))
    throw validationError('issuer', 'must be an https address (CONSOLE_SSO_ALLOW_HTTP=true also accepts http)');
  if (url.search || url.hash) throw validationError('issuer', 'must not carry a query or fragment');
  return value.trim();
}

/** Whether the email's domain is one of the allowed ones (exactly: a subdomain is another domain). */
export function emailDomainAllowed(email: string, domains: readonly string[]): boolean {
  const at = email.lastIndexOf('@');
  return at > 0 && domains.includes(email.slice(at + 1).toLowerCase());
}

/** The groups a claim carries: an array of strings, or one string (some providers send one group so). */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** The role the claims map to, or undefined when none of the user's groups is mapped. */
export function roleFromClaims(claims: Record<string, unknown>, mapping: RoleMapping): Role | undefined {
  const groups = new Set(groupsOf(claims, mapping.claim));
  return ORDER.find((role) => {
    const group = mapping[role];
    return group !== null && groups.has(group);
  });
}
