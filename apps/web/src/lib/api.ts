import { type Endpoint, type EndpointInput, type EndpointOutput, type EndpointRoute, endpointUrl, TENANT_HEADER } from '@mustard/shared';
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

function headersFor(extra: Record<string, string> = {}): Record<string, string> {
  const session = loadSession();
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (session?.tenant && !(TENANT_HEADER in headers)) headers[TENANT_HEADER] = session.tenant.tenantcode;
  return headers;
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text();
  let payload: { message?: string; errors?: Record<string, string[]> } = {};
  try {
    payload = text ? JSON.parse(text) : {};
  } catch {
    payload = {};
  }
  return new ApiError(response.status, payload.message ?? response.statusText, payload);
}

/**
 * Downloads a file the API answers (a spreadsheet, a PDF) and hands it to the browser under the
 * name the server gave it (content-disposition).
 */
async function download(path: string, body?: unknown): Promise<string> {
  let response: Response;
  try {
    // A POST download (a marks grid's sheet) sends its fields as JSON.
    response = await fetch(
      path,
      body === undefined
        ? { headers: headersFor({ accept: '*/*' }) }
        : { method: 'POST', headers: headersFor({ accept: '*/*', 'content-type': 'application/json' }), body: JSON.stringify(body) },
    );
  } catch {
    throw new ApiError(null, 'Network error');
  }
  if (!response.ok) throw await failure(response);
  const name = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** A file the API answers (a learner's photo), for showing in the page. */
async function blob(path: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(path, { headers: headersFor({ accept: '*/*' }) });
  } catch {
    throw new ApiError(null, 'Network error');
  }
  if (!response.ok) throw await failure(response);
  return response.blob();
}

async function request<T>(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult<T>> {
  const allHeaders = headersFor(headers);
  // A form with a file goes as multipart (the browser sets its boundary); anything else as JSON.
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) allHeaders['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: allHeaders,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
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
  download,
  blob,
};

export interface CallOptions {
  /** Headers for this call only (a token being checked before it is stored, say). */
  headers?: Record<string, string>;
}

type Given = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/**
 * Calls an endpoint by its contract (packages/shared endpoints): the URL from its path, params
 * and query; a multipart body as the FormData given; the answer parsed with the contract's
 * schema, so a page works with what the schema promises or learns at once that it did not come.
 * A file answer comes back as a Blob.
 */
export async function call<E extends Endpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<EndpointOutput<E>> {
  return (await callWithHeaders(endpoint, input, options)).data;
}

/** `call`, with the answer's headers too (sign-in hands its token in one). */
export async function callWithHeaders<E extends Endpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<ApiResult<EndpointOutput<E>>> {
  const given = input as Given;
  const url = endpointUrl(endpoint.path, given.params, given.query);
  if (endpoint.response === 'file') return { data: (await blob(url)) as EndpointOutput<E>, headers: new Headers() };
  const body = endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : (given.body ?? {});
  const { data, headers } = await request<unknown>(endpoint.method, url, body, options.headers);
  const parsed = endpoint.response.safeParse(data);
  if (!parsed.success) throw new ApiError(500, `Unexpected answer from ${endpoint.path}`);
  return { data: parsed.data as EndpointOutput<E>, headers };
}

/**
 * Saves what an endpoint answers as a file (a template, a statement, a list with `excel=1`, a
 * grid's sheet to fill) under the name the server gave it; answers that name.
 */
export function downloadFrom<E extends Endpoint>(endpoint: E, input: EndpointInput<E>): Promise<string> {
  const given = input as Given;
  // A POST contract (a marks grid's sheet to fill) sends its fields, `excel` among them, as JSON.
  if (endpoint.method !== 'GET') return download(endpointUrl(endpoint.path, given.params, given.query), given.body ?? {});
  const query = endpoint.spreadsheet ? { ...given.query, excel: 1 } : given.query;
  return download(endpointUrl(endpoint.path, given.params, query));
}

/**
 * `callWithHeaders` by an endpoint's route alone (its method and path, typed by the contract),
 * the answer not parsed: for the sign-in page and the signed-in frame, whose cold loads have no
 * room for the schema library. The server still answers by the contract; everywhere else, `call`.
 */
export function callRoute<E extends Endpoint>(
  route: EndpointRoute<E>,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<ApiResult<EndpointOutput<E>>> {
  const given = input as Given;
  const url = endpointUrl(route.path, given.params, given.query);
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : (given.body ?? {});
  return request<EndpointOutput<E>>(route.method, url, body, options.headers);
}

/** A path with its query: empty values are left out. */
export function withQuery(path: string, params: Record<string, string | number | boolean | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
