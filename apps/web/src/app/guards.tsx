import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../lib/auth.js';
import type { RouteDefinition } from './routes.js';

/** Without a live session: to /login, remembering where the user was going. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { session } = useAuth();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return children;
}

/** Without the route's ability (spec §6): the 403 page. */
export function RequireAbility({ ability, children }: { ability: RouteDefinition['ability']; children: ReactNode }) {
  const { can } = useAuth();
  if (ability && !can(ability.action, ability.subject)) return <Navigate to="/error-403-basic" replace />;
  return children;
}
