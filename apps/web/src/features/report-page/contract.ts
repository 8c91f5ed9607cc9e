import type { Endpoint, EndpointInput } from '@mustard/shared';
import type { z } from 'zod';

/*
 * A report page's calls by its endpoint's contract (packages/shared/src/endpoints): the filter's
 * query checked by the contract's own schema before anything is sent, and the call's input built
 * from it. Pure.
 */

/** What a caller gives the endpoint as its query, as its contract takes it. */
export type QueryOf<E extends Endpoint> = EndpointInput<E> extends { query?: infer Query } ? NonNullable<Query> : never;

/** The query as the contract reads it (what the server works with). */
export type QueryOutput<E extends Endpoint> = E['query'] extends z.ZodType ? z.output<E['query']> : never;

/** The filter's query checked by the endpoint's schema: as the contract takes it and as it reads it, or why not. */
export function checkedQuery<E extends Endpoint>(
  endpoint: E,
  query: Record<string, unknown>,
): { query: QueryOf<E>; read: QueryOutput<E>; refused: null } | { query: null; read: null; refused: z.ZodError } {
  const parsed = endpoint.query?.safeParse(query);
  if (parsed && !parsed.success) return { query: null, read: null, refused: parsed.error };
  // The contract's schema has just read it: it is what the endpoint takes.
  return { query: query as QueryOf<E>, read: (parsed?.data ?? {}) as QueryOutput<E>, refused: null };
}

/**
 * A call's input from its query. The endpoints a report page calls take a query and nothing else
 * (no path parameters, no body), which TypeScript cannot see through a generic contract: the
 * declaration checked the outputs' queries against the real one, `checkedQuery` the filter's.
 */
export function inputOf<E extends Endpoint>(query: QueryOf<E>): EndpointInput<E> {
  const input: { query: QueryOf<E> } = { query };
  return input as unknown as EndpointInput<E>;
}
