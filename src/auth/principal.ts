import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';

/** Who is calling, as established by the auth hooks before validation runs. */
export type Principal = SdkKeyPrincipal | OperatorKeyPrincipal | UserPrincipal;

export interface SdkKeyPrincipal {
  readonly kind: 'sdk-key';
  readonly keyId: string;
  readonly keyName: string;
  readonly workspaceId: string;
  readonly projectId: string;
}

export interface OperatorKeyPrincipal {
  readonly kind: 'operator-key';
  readonly keyId: string;
  readonly keyName: string;
  readonly workspaceId: string;
}

export interface UserPrincipal {
  readonly kind: 'user';
  readonly userId: string;
  readonly userName: string;
  readonly tokenId: string;
  /** Null only on routes that need no workspace (sign-out, who-am-I). */
  readonly workspaceId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The project an sdk-key request acts for; routes call this after requireSdkKey. */
export function sdkPrincipal(request: FastifyRequest): SdkKeyPrincipal {
  const principal = request.principal;
  if (principal?.kind !== 'sdk-key') throw new AppError('INTERNAL_ERROR', 'route is missing its sdk auth hook');
  return principal;
}

/** An operator: an operator key or a dashboard user inside a workspace. */
export function operatorPrincipal(request: FastifyRequest): (OperatorKeyPrincipal | UserPrincipal) & { workspaceId: string } {
  const principal = request.principal;
  if (principal?.kind === 'operator-key') return principal;
  if (principal?.kind === 'user' && principal.workspaceId !== null) return { ...principal, workspaceId: principal.workspaceId };
  throw new AppError('INTERNAL_ERROR', 'route is missing its operator auth hook');
}

export function userPrincipal(request: FastifyRequest): UserPrincipal {
  const principal = request.principal;
  if (principal?.kind !== 'user') throw new AppError('INTERNAL_ERROR', 'route is missing its user auth hook');
  return principal;
}

/** A user inside the workspace named by X-Workspace-Id (admin routes). */
export function workspaceUserPrincipal(request: FastifyRequest): UserPrincipal & { workspaceId: string } {
  const principal = userPrincipal(request);
  if (principal.workspaceId === null) throw new AppError('INTERNAL_ERROR', 'route is missing its workspace auth hook');
  return { ...principal, workspaceId: principal.workspaceId };
}

/** Display name of an operator when it does not give one: the key's or the user's name. */
export function operatorDisplayName(principal: OperatorKeyPrincipal | UserPrincipal): string {
  return principal.kind === 'operator-key' ? principal.keyName : principal.userName;
}
