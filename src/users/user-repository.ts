import type { Db } from '../db/database.js';

export async function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function findUser(db: Db, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function findMembership(db: Db, workspaceId: string, userId: string) {
  return db.selectFrom('workspace_members').selectAll().where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
}

export async function listUserWorkspaces(db: Db, userId: string) {
  return db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .select(['workspaces.id as id', 'workspaces.name as name', 'workspace_members.role as role'])
    .where('workspace_members.user_id', '=', userId)
    .orderBy('workspaces.created_at')
    .execute();
}

export async function findUserTokenByHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('user_tokens')
    .innerJoin('users', 'users.id', 'user_tokens.user_id')
    .select(['user_tokens.id as tokenId', 'user_tokens.expires_at as expiresAt', 'user_tokens.revoked_at as revokedAt', 'users.id as userId', 'users.name as userName'])
    .where('user_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}
