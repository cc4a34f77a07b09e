import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/dialect.js';
import { AppError, validationError } from '../http/errors.js';
import { newId } from '../shared/ids.js';
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../shared/secrets.js';
import { isoAfter, nowIso } from '../shared/time.js';
import { findUserByEmail } from './user-repository.js';

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUser {
  email: string;
  name: string;
  password: string;
  workspaceId: string;
  role?: string;
}

/** Creates a dashboard user and makes it a member of the workspace, in one transaction. */
export async function createUser(db: Db, input: NewUser): Promise<{ id: string; email: string; name: string }> {
  const email = input.email.trim().toLowerCase();
  if (!emailPattern.test(email)) throw validationError('email is not an e-mail address');
  if (input.password.length < 10) throw validationError('password must be at least 10 characters');
  const passwordHash = await hashPassword(input.password);
  const id = newId('usr');
  const now = nowIso();
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values({ id, email, name: input.name, password_hash: passwordHash, created_at: now }).execute();
      await trx.insertInto('workspace_members').values({ workspace_id: input.workspaceId, user_id: id, role: input.role ?? 'owner', created_at: now }).execute();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'a user with that email already exists');
    throw error;
  }
  return { id, email, name: input.name };
}

/** A new user token (`ut_…`); only its hash is stored. */
export async function issueUserToken(db: Db, userId: string, ttlSeconds: number): Promise<{ token: string; expiresAt: string }> {
  const token = `ut_${randomToken(32)}`;
  const expiresAt = isoAfter(ttlSeconds * 1000);
  await db.insertInto('user_tokens').values({ id: newId('utk'), user_id: userId, token_hash: sha256Hex(token), created_at: nowIso(), expires_at: expiresAt, revoked_at: null }).execute();
  return { token, expiresAt };
}

export async function signIn(db: Db, email: string, password: string, ttlSeconds: number): Promise<{ token: string; expiresAt: string; user: { id: string; email: string; name: string } }> {
  const user = await findUserByEmail(db, email.trim());
  // Same answer for an unknown email and a wrong password: no account enumeration.
  if (!user || !(await verifyPassword(password, user.password_hash))) {
    throw new AppError('UNAUTHORIZED', 'email or password is wrong');
  }
  const issued = await issueUserToken(db, user.id, ttlSeconds);
  return { ...issued, user: { id: user.id, email: user.email, name: user.name } };
}

export async function revokeUserToken(db: Db, tokenId: string): Promise<void> {
  await db.updateTable('user_tokens').set({ revoked_at: nowIso() }).where('id', '=', tokenId).execute();
}
