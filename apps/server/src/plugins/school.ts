import { classOptions } from '@mustard/shared';
import type { FastifyRequest } from 'fastify';
import { currentTenant } from './access.js';

/** What a school's services need of the selected tenant besides its id: its name and its classes. */
export interface School {
  name: string;
  /** The classes the school offers, in its spelling and order (spec §3 class options). */
  classes: ReadonlyArray<string>;
}

export function schoolOf(request: FastifyRequest): School {
  const { tenant } = currentTenant(request);
  return { name: tenant.name, classes: classOptions(tenant) };
}
