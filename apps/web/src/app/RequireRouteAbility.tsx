import type { ReactNode } from 'react';
import { matchRoutes, Navigate, useLocation } from 'react-router';
import { useAccess } from '../lib/access.js';
import { PROTECTED_ROUTES } from './routes.js';

/**
 * Without the ability the current route needs (spec §6): the 403 page. One check in the
 * signed-in frame covers every protected route; it lives apart from the session guard so that
 * the sign-in pages do not download the rules engine.
 */
export function RequireRouteAbility({ children }: { children: ReactNode }) {
  const { can } = useAccess();
  const location = useLocation();
  const ability = matchRoutes(PROTECTED_ROUTES, location)?.at(-1)?.route.ability;
  if (ability && !can(ability.action, ability.subject)) return <Navigate to="/error-403-basic" replace />;
  return children;
}
