import type { Db } from '../db/database.js';
import { channels, type EventBus } from '../events/event-bus.js';
import { AppError } from '../http/errors.js';
import { apiKeyPattern } from '../keys/api-key-format.js';
import { findApiKeyByHash, touchApiKey } from '../keys/key-repository.js';
import type { ApiKeyRow } from '../keys/key-tables.js';
import { sha256Hex } from '../shared/secrets.js';
import { nowIso } from '../shared/time.js';
import { findMembership, findUserTokenByHash } from '../users/user-repository.js';
import type { OperatorKeyPrincipal, SdkKeyPrincipal, UserPrincipal } from './principal.js';

const cacheTtlMs = 30_000;
const cacheMaxEntries = 10_000;
const touchIntervalMs = 60_000;
const userTokenPattern = /^ut_[0-9A-Za-z]{20,100}$/;

interface CachedKey {
  row: ApiKeyRow;
  loadedAt: number;
}

/**
 * Turns credentials into principals. API keys are looked up by the SHA-256 of
 * the key through a unique index, and kept in a small cache so the hot path
 * does no query; a revoke anywhere evicts the entry through the event bus.
 */
export class Authenticator {
  private readonly keys = new Map<string, CachedKey>();
  private readonly lastTouched = new Map<string, number>();

  constructor(private readonly db: Db, private readonly onTouchError: (error: unknown) => void) {}

  async listen(bus: EventBus): Promise<void> {
    await bus.subscribe(channels.apiKeyRevoked, (message) => {
      const keyHash = (message as { keyHash?: unknown }).keyHash;
      if (typeof keyHash === 'string') this.keys.delete(keyHash);
    });
  }

  async apiKey(rawKey: string): Promise<SdkKeyPrincipal | OperatorKeyPrincipal> {
    if (!apiKeyPattern.test(rawKey)) throw new AppError('UNAUTHORIZED', 'malformed API key: expected Authorization: Bearer ak_…');
    const hash = sha256Hex(rawKey);
    const row = await this.loadKey(hash);
    if (!row || row.revoked_at !== null) throw new AppError('UNAUTHORIZED', 'invalid API key');
    if (row.expires_at !== null && row.expires_at <= nowIso()) throw new AppError('UNAUTHORIZED', 'API key has expired');
    this.touch(row.id);
    return row.scope === 'sdk' && row.project_id !== null
      ? { kind: 'sdk-key', keyId: row.id, keyName: row.name, workspaceId: row.workspace_id, projectId: row.project_id }
      : { kind: 'operator-key', keyId: row.id, keyName: row.name, workspaceId: row.workspace_id };
  }

  /** A dashboard user token; with a workspace id, membership of it is required. */
  async userToken(rawToken: string, workspaceId: string | null): Promise<UserPrincipal> {
    if (!userTokenPattern.test(rawToken)) throw new AppError('UNAUTHORIZED', 'malformed user token');
    const token = await findUserTokenByHash(this.db, sha256Hex(rawToken));
    if (!token || token.revokedAt !== null) throw new AppError('UNAUTHORIZED', 'invalid user token');
    if (token.expiresAt <= nowIso()) throw new AppError('UNAUTHORIZED', 'user token has expired: sign in again');
    if (workspaceId !== null && !(await findMembership(this.db, workspaceId, token.userId))) {
      // Not "forbidden": a workspace the user is not in is, to them, one that does not exist.
      throw new AppError('NOT_FOUND', 'workspace not found');
    }
    return { kind: 'user', userId: token.userId, userName: token.userName, tokenId: token.tokenId, workspaceId };
  }

  private async loadKey(hash: string): Promise<ApiKeyRow | undefined> {
    const cached = this.keys.get(hash);
    if (cached && Date.now() - cached.loadedAt < cacheTtlMs) return cached.row;
    const row = await findApiKeyByHash(this.db, hash);
    if (row) {
      if (this.keys.size >= cacheMaxEntries) this.keys.delete(this.keys.keys().next().value as string);
      this.keys.set(hash, { row, loadedAt: Date.now() });
    }
    return row;
  }

  /** last_used_at is advisory: written at most once a minute per key, off the request path. */
  private touch(keyId: string): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(keyId) ?? 0) < touchIntervalMs) return;
    this.lastTouched.set(keyId, now);
    touchApiKey(this.db, keyId, new Date(now).toISOString()).catch(this.onTouchError);
  }
}
