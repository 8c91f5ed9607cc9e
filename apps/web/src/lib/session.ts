import type { LoginResponse, Profile, TenantSummary } from '@mustard/shared';

/**
 * The session kept in the browser (spec §3 "Local storage"): token, user, selected tenant.
 * It is valid only while the token's `exp` (seconds) is in the future; otherwise all three are
 * cleared. A logout is announced to the other tabs, which sign out too.
 */
export const STORAGE_KEYS = {
  token: 'mustard.token',
  user: 'mustard.user',
  tenant: 'mustard.tenant',
  language: 'mustard.language',
  layout: 'mustard.layout',
} as const;

export type SessionUser = LoginResponse | Profile;

export interface Session {
  token: string;
  user: SessionUser;
  tenant: TenantSummary | null;
}

const channelName = 'mustard-session';

/** The `exp` claim of a JWT, in seconds, or undefined when the token cannot be read. */
export function tokenExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/')));
    return typeof payload.exp === 'number' ? payload.exp : undefined;
  } catch {
    return undefined;
  }
}

export function tokenIsLive(token: string | null | undefined, now = Date.now()): token is string {
  const exp = token ? tokenExpiry(token) : undefined;
  return exp !== undefined && exp * 1000 > now;
}

function read<T>(key: string): T | null {
  const text = localStorage.getItem(key);
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function loadSession(): Session | null {
  const token = localStorage.getItem(STORAGE_KEYS.token);
  const user = read<SessionUser>(STORAGE_KEYS.user);
  if (!tokenIsLive(token) || !user) {
    if (token || user) clearSession();
    return null;
  }
  return { token, user, tenant: read<TenantSummary>(STORAGE_KEYS.tenant) };
}

export function saveSession(session: Session): void {
  localStorage.setItem(STORAGE_KEYS.token, session.token);
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(session.user));
  if (session.tenant) localStorage.setItem(STORAGE_KEYS.tenant, JSON.stringify(session.tenant));
}

export function clearSession(): void {
  localStorage.removeItem(STORAGE_KEYS.token);
  localStorage.removeItem(STORAGE_KEYS.user);
  localStorage.removeItem(STORAGE_KEYS.tenant);
}

/** Clears the session here and tells every other open tab to do the same. */
export function announceLogout(): void {
  clearSession();
  if ('BroadcastChannel' in window) {
    const channel = new BroadcastChannel(channelName);
    channel.postMessage('logout');
    channel.close();
  }
}

/** Calls `onLogout` when another tab logs out (by message, or by the token vanishing from storage). */
export function onLogoutElsewhere(onLogout: () => void): () => void {
  const channel = 'BroadcastChannel' in window ? new BroadcastChannel(channelName) : undefined;
  if (channel) channel.onmessage = (event) => event.data === 'logout' && onLogout();
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.token && !event.newValue) onLogout();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    channel?.close();
    window.removeEventListener('storage', onStorage);
  };
}

export function isProfile(user: SessionUser): user is Profile {
  return 'permissions' in user;
}
