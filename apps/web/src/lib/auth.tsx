import { type LoginResponse, logoutRoute, type Profile, profileRoute, type TenantSummary } from '@mustard/shared';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { callRoute } from './api.js';
import { PAGES, showsOneRecord } from './pages.js';
import { announceLogout, loadSession, onLogoutElsewhere, type Session, saveSession } from './session.js';

interface AuthState {
  session: Session | null;
  /**
   * Signs in from a login or code-redemption answer: the tenant asked for (the school just
   * joined), else the first, then its full profile.
   */
  completeSignIn(token: string, user: LoginResponse, preferred?: TenantSummary): Promise<void>;
  /**
   * Fetches the profile for another school, stores it and reloads the page (spec §4); a page
   * of one record of the old school (a learner, a grade set) gives way to the dashboard.
   */
  switchTenant(tenant: TenantSummary): Promise<void>;
  /**
   * Loads the profile afresh: the schools a person belongs to change while they work (a
   * school created in the admin console, an invitation accepted), and the switcher lists them.
   */
  refreshProfile(): Promise<void>;
  logout(): void;
}

const AuthContext = createContext<AuthState | null>(null);

/*
 * The profile and logout go by their contracts' routes, unparsed (`callRoute`): this provider is
 * in every page's cold load, which has no room for the schema library.
 */

async function fetchProfile(token: string, tenantcode: string, tenantId?: string): Promise<Profile> {
  const { data } = await callRoute(
    profileRoute,
    { query: { tenant_id: tenantId } },
    { headers: { authorization: `Bearer ${token}`, tenantcode } },
  );
  return data;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(() => loadSession());

  useEffect(() => onLogoutElsewhere(() => setSession(null)), []);

  const completeSignIn = useCallback(async (token: string, user: LoginResponse, preferred?: TenantSummary) => {
    const tenant = user.tenants.find((candidate) => candidate.id === preferred?.id) ?? user.tenants[0] ?? null;
    let fullUser: LoginResponse | Profile = user;
    if (tenant) fullUser = await fetchProfile(token, tenant.tenantcode);
    const next = { token, user: fullUser, tenant };
    saveSession(next);
    setSession(next);
  }, []);

  const switchTenant = useCallback(
    async (tenant: TenantSummary) => {
      if (!session) return;
      const profile = await fetchProfile(session.token, session.tenant?.tenantcode ?? tenant.tenantcode, tenant.id);
      saveSession({ token: session.token, user: profile, tenant: profile.tenant });
      if (showsOneRecord(window.location.pathname)) window.location.assign(PAGES.dashboard.path);
      else window.location.reload();
    },
    [session],
  );

  const refreshProfile = useCallback(async () => {
    const current = loadSession();
    if (!current?.tenant) return;
    const profile = await fetchProfile(current.token, current.tenant.tenantcode);
    // Signed out or switched meanwhile: this answer is about a session that is gone.
    const now = loadSession();
    if (now?.token !== current.token || now.tenant?.id !== current.tenant.id) return;
    const next = { token: current.token, user: profile, tenant: profile.tenant ?? current.tenant };
    saveSession(next);
    setSession(next);
  }, []);

  const logout = useCallback(() => {
    const token = session?.token;
    if (token) void callRoute(logoutRoute, {}, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    announceLogout();
    setSession(null);
  }, [session]);

  const value = useMemo<AuthState>(
    () => ({ session, completeSignIn, switchTenant, refreshProfile, logout }),
    [session, completeSignIn, switchTenant, refreshProfile, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth outside AuthProvider');
  return context;
}
