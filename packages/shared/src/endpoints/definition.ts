import type { z } from 'zod';
import type { Action, SubjectClass } from '../abilities.js';

/*
 * Endpoint contracts (issue 11 point 1): every hand-written route is declared once, here in
 * shared, and both sides build from the declaration. The server registers the route from it
 * (method, path, access, schemas); the web calls it with `call(endpoint, input)`, which builds
 * the URL and parses the answer with the same schema. List screens keep their own, richer
 * declaration (`defineResource`).
 */

/** Who may call: anyone, any signed-in user, any member of the selected tenant, or an ability. */
export type EndpointAccess = 'public' | 'signed-in' | 'member' | { action: Action; subject: SubjectClass };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The one file of a multipart body: its field, and whether the call needs it. */
export interface FileField {
  field: string;
  required: boolean;
}

export interface EndpointDefinition<
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType | 'file' = z.ZodType | 'file',
  Upload extends FileField | undefined = FileField | undefined,
  Sheet extends true | undefined = true | undefined,
  Download extends true | undefined = true | undefined,
> {
  method: HttpMethod;
  /** The path, with `:name` for each path parameter: `/api/school/students/:id`. */
  path: string;
  access: EndpointAccess;
  params?: Params;
  query?: Query;
  body?: Body;
  /** The JSON answer's schema, or `file` for a download (a spreadsheet, a PDF). */
  response: Response;
  /**
   * The body goes as multipart form data with one file (a photo, a spreadsheet) in the named
   * field; `body` then checks the text fields. A required file that is missing is named in the
   * same 422 as the other fields. A JSON body is read as the same fields (without a file).
   */
  file?: Upload;
  /** With `excel=1` in the query the answer is the list as a spreadsheet instead of JSON. */
  spreadsheet?: Sheet;
  /**
   * The answer is a file (a PDF, a spreadsheet) unless the query asks for JSON (`json=1`,
   * `html=1`): a report's contract declares the JSON it may give and downloads the rest.
   */
  download?: Download;
}

/** A declared endpoint: its schemas as given (`undefined` where it takes none). */
export type Endpoint<
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType | 'file' = z.ZodType | 'file',
  Upload extends FileField | undefined = FileField | undefined,
  Sheet extends true | undefined = true | undefined,
  Download extends true | undefined = true | undefined,
> = EndpointDefinition<Params, Query, Body, Response, Upload, Sheet, Download> & {
  params: Params;
  query: Query;
  body: Body;
  file: Upload;
  spreadsheet: Sheet;
  download: Download;
};

/** Marked free of side effects: a bundle keeps only the contracts (and schemas) it calls. */
/* @__NO_SIDE_EFFECTS__ */
export function defineEndpoint<
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  Response extends z.ZodType | 'file' = 'file',
  const Upload extends FileField | undefined = undefined,
  Sheet extends true | undefined = undefined,
  Download extends true | undefined = undefined,
>(
  endpoint: EndpointDefinition<Params, Query, Body, Response, Upload, Sheet, Download>,
): Endpoint<Params, Query, Body, Response, Upload, Sheet, Download> {
  return endpoint as Endpoint<Params, Query, Body, Response, Upload, Sheet, Download>;
}

type InputOf<Schema> = Schema extends z.ZodType ? z.input<Schema> : undefined;

/**
 * What a caller gives: path parameters, query and body, each as its schema takes it. An endpoint
 * with a file takes its body as FormData with the file, or as JSON without one.
 */
export type EndpointInput<E extends Endpoint> = (E['params'] extends z.ZodType ? { params: InputOf<E['params']> } : Record<never, never>) &
  (E['query'] extends z.ZodType ? { query?: InputOf<E['query']> } : Record<never, never>) &
  (E['body'] extends z.ZodType
    ? { body: E['file'] extends FileField ? FormData | InputOf<E['body']> : InputOf<E['body']> }
    : Record<never, never>);

/** What the endpoint answers: the parsed JSON, or a file. */
export type EndpointOutput<E extends Endpoint> = E['response'] extends z.ZodType ? z.output<E['response']> : Blob;

/**
 * The URL of a call: each `:name` of the path from `params` (encoded), then the query's
 * non-empty values. A path parameter that is missing is an error, never the literal `:id`.
 */
export function endpointUrl(path: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
  const url = path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${url}?${text}` : url;
}
