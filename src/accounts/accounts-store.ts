import type { Db } from '../infra/database.js';
import type { ConsoleInvitationsTable, ConsoleSessionsTable } from '../infra/db-schema.js';

/**
 * The console's sign-in tables: password hashes, invitation and reset links, sessions and failed
 * sign-ins. No other module writes SQL against them. Made on the database, or on a transaction.
 */

export type InvitationRow = ConsoleInvitationsTable;
export type SessionRow = ConsoleSessionsTable;

export class AccountsStore {
  constructor(private readonly db: Db) {}

  async passwordHash(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('user_passwords')
      .select('password_hash')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.password_hash;
  }

  async setPassword(userId: string, hash: string, at: string): Promise<void> {
    await this.db
      .insertInto('user_passwords')
      .values({ user_id: userId, password_hash: hash, updated_at: at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: hash, updated_at: at }))
      .execute();
  }

  async insertInvitation(row: InvitationRow): Promise<void> {
    await this.db.insertInto('console_invitations').values(row).execute();
  }

  invitation(tokenHash: string): Promise<InvitationRow | undefined> {
    return this.db.selectFrom('console_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Marks an unused invitation used; false when it was used meanwhile (single use under races too). */
  async useInvitation(tokenHash: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('console_invitations')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Withdraws a user's unused links (a new one replaces them). */
  async withdrawInvitations(userId: string, at: string): Promise<void> {
    await this.db
      .updateTable('console_invitations')
      .set({ used_at: at })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }

  async insertSession(row: SessionRow): Promise<void> {
    await this.db.insertInto('console_sessions').values(row).execute();
  }

  session(tokenHash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('console_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async touchSession(tokenHash: string, at: string): Promise<void> {
    await this.db
      .updateTable('console_sessions')
      .set({ last_seen_at: at })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  async setSessionOrg(tokenHash: string, orgId: string): Promise<void> {
    await this.db.updateTable('console_sessions').set({ org_id: orgId }).where('token_hash', '=', tokenHash).execute();
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Every session of a user (a new password ends them all). */
  async deleteSessionsOf(userId: string): Promise<void> {
    await this.db.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
  }

  async deleteExpiredSessions(absoluteBefore: string, idleBefore: string): Promise<void> {
    await this.db
      .deleteFrom('console_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', absoluteBefore), eb('last_seen_at', '<=', idleBefore)]))
      .execute();
  }

  async recordFailure(row: { id: string; email: string; address: string; at: string }): Promise<void> {
    await this.db.insertInto('sign_in_failures').values(row).execute();
  }

  /** Failed sign-ins since `since` for the account and for the address. */
  async failuresSince(email: string, address: string, since: string): Promise<{ account: number; address: number }> {
    const [account, fromAddress] = await Promise.all([
      this.db
        .selectFrom('sign_in_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('email', '=', email)
        .where('at', '>', since)
        .executeTakeFirst(),
      this.db
        .selectFrom('sign_in_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('address', '=', address)
        .where('at', '>', since)
        .executeTakeFirst(),
    ]);
    return { account: Number(account?.n ?? 0), address: Number(fromAddress?.n ?? 0) };
  }

  /** The oldest failure still counted for the account or address: the limit lifts when it ages out. */
  async oldestFailureSince(email: string, address: string, since: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('sign_in_failures')
      .select((eb) => eb.fn.min<string>('at').as('at'))
      .where((eb) => eb.or([eb('email', '=', email), eb('address', '=', address)]))
      .where('at', '>', since)
      .executeTakeFirst();
    return row?.at ?? undefined;
  }

  async clearAccountFailures(email: string): Promise<void> {
    await this.db.deleteFrom('sign_in_failures').where('email', '=', email).execute();
  }

  async pruneFailures(before: string): Promise<void> {
    await this.db.deleteFrom('sign_in_failures').where('at', '<=', before).execute();
  }
}
