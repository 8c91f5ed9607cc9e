import { TENANT_HEADER } from '@mustard/shared';
import { loadSession } from './session.js';

/**
 * The one API client (spec §7): JSON in and out, `Authorization` with the token and
 * `TENANTCODE` with the selected tenant on every call. Failures become ApiError with the
 * status and the server's message; `null` status means no response at all.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
    readonly data?: { message?: string; errors?: Record<string, string[]> },
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiResult<T> {
  data: T;
  headers: Headers;
}

async function request<T>(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult<T>> {
  const session = loadSession();
  const allHeaders: Record<string, string> = { accept: 'application/json', ...headers };
  if (session) allHeaders.authorization = `Bearer ${session.token}`;
  if (session?.tenant && !(TENANT_HEADER in allHeaders)) allHeaders[TENANT_HEADER] = session.tenant.tenantcode;
  if (body !== undefined) allHeaders['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers: allHeaders, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(null, 'Network error');
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const payload = (data ?? {}) as { message?: string; errors?: Record<string, string[]> };
    throw new ApiError(response.status, payload.message ?? response.statusText, payload);
  }
  return { data: data as T, headers: response.headers };
}

export const api = {
  get: <T>(path: string, headers?: Record<string, string>) => request<T>('GET', path, undefined, headers),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>('POST', path, body ?? {}, headers),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
