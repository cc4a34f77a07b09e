import type { paths } from './generated/openapi.js';

/*
 * Request and response types of every JSON route, read from the generated OpenAPI
 * types (generated/openapi.ts), so the client cannot drift from the server's schemas.
 */

export type ApiPath = keyof paths;
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Operation<P, M extends HttpMethod> = P extends ApiPath ? (M extends keyof paths[P] ? NonNullable<paths[P][M]> : never) : never;

type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body a route accepts (`never` when it takes none). */
export type RequestBody<P, M extends HttpMethod> = Operation<P, M> extends { requestBody?: infer B } ? JsonContent<NonNullable<B>> : never;

/** The query parameters a route accepts. */
export type QueryParams<P, M extends HttpMethod> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type SuccessStatus = 200 | 201;

/** `data` of the success envelope of a route. */
export type ResponseData<P, M extends HttpMethod> = Operation<P, M> extends { responses: infer R }
  ? { [S in keyof R]: S extends SuccessStatus ? (JsonContent<R[S]> extends { data: infer D } ? D : never) : never }[keyof R]
  : never;
