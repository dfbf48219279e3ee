import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { UserRow, UsersRepository } from './users.repository.ts';

export type { UserRow };

/**
 * What other modules do with users: passphrase sign-up and sign-in (auth), finding an account
 * (customers), serialising one user's writes (customers, memberships, settings) and the user-count
 * metric. Only the users module uses its repository.
 */
export class UserAccountsService {
  constructor(private readonly users: UsersRepository) {}

  findById(id: string): Promise<UserRow | undefined> {
    return this.users.findById(id);
  }

  findByPublicKey(publicKey: string): Promise<UserRow | undefined> {
    return this.users.findByPublicKey(publicKey);
  }

  /** Inserts unless the public key is taken; false on that conflict. */
  insertIfKeyFree(row: UserRow, trx: Kysely<Database>): Promise<boolean> {
    return this.users.insertIfKeyFree(row, trx);
  }

  setLastLoggedIn(id: string, at: number, trx: Kysely<Database>): Promise<void> {
    return this.users.setLastLoggedIn(id, at, trx);
  }

  /**
   * Serialises one user's writes across processes until the transaction ends (a row lock on
   * PostgreSQL; SQLite transactions are exclusive).
   */
  lockUser(trx: Transaction<Database>, id: string): Promise<void> {
    return this.users.lockUser(trx, id);
  }

  /** Users per namespace, the largest `limit` namespaces (for the user-count gauge). */
  countByNamespace(limit: number): Promise<{ namespace: string; count: number }[]> {
    return this.users.countByNamespace(limit);
  }
}
