import multipart from '@fastify/multipart';
import { ERROR_MESSAGES, INPUT_MESSAGES, isStorableText } from '@mustard/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, type FieldErrors, invalid } from '../errors.js';
import { unstorableTexts } from './input.js';

/** The largest file any form takes: a workbook of a whole school, or a learner's photo. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export function registerMultipart(app: FastifyInstance): Promise<void> {
  return app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 60, parts: 70, fieldSize: 64 * 1024 },
  }) as unknown as Promise<void>;
}

/** The most values one listed field takes (the form's field count bounds a multipart one anyway). */
const MAX_LIST_ITEMS = 100;
/** The most entries one keyed field takes: a value for each learner of the largest grid. */
const MAX_MAP_ENTRIES = 2000;

export interface UploadedFile {
  field: string;
  filename: string;
  buffer: Buffer;
}

export interface MultipartForm {
  /**
   * Text fields; a list where the form repeats a `name[]` field or JSON sends a list of plain
   * values; texts by key where the form sends `name[key]` fields or JSON an object of plain
   * values (a value for each learner of a class, say).
   */
  fields: Record<string, string | string[] | Record<string, string>>;
  file: UploadedFile | null;
  /** The fields a JSON body sent as a number or a flag, read as text: a field that takes text only refuses them. */
  notText: ReadonlySet<string>;
}

/**
 * A multipart form's text fields and its one file (read into memory within MAX_UPLOAD_BYTES).
 * A JSON body is read as fields too, so the same route serves both; there a field must be text,
 * a number, a flag or null (an object would otherwise be saved as "[object Object]").
 *
 * A body the multipart reader cannot read (cut short, no closing boundary, no boundary at all,
 * not multipart) answers 400 with the catalogue's words; too large answers 413; a text field
 * the database cannot store answers 422 naming it, like every route (plugins/input.ts).
 */
export async function readForm(request: FastifyRequest): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) throw new AppError(400, ERROR_MESSAGES[400]);
    const fields: MultipartForm['fields'] = {};
    const notText = new Set<string>();
    const errors: FieldErrors = {};
    const plain = (value: unknown) => value === null || typeof value !== 'object';
    const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
    for (const [key, value] of Object.entries(body)) {
      if (Array.isArray(value) && value.length <= MAX_LIST_ITEMS && value.every(plain)) fields[key] = value.map(text);
      else if (isKeyedTexts(value)) fields[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, text(item)]));
      else if (!plain(value)) errors[key] = [INPUT_MESSAGES.valueInvalid];
      else {
        if (typeof value === 'number' || typeof value === 'boolean') notText.add(key);
        fields[key] = value === null || value === undefined ? '' : String(value);
      }
    }
    if (Object.keys(errors).length > 0) throw invalid(errors);
    return { fields, file: null, notText };
  }
  const fields: MultipartForm['fields'] = Object.create(null);
  let file: UploadedFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer();
        if (buffer.length > 0) file = { field: part.fieldname, filename: part.filename, buffer };
      } else {
        const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
        // `marktypes[]` repeated is one list `marktypes` (the multipart form's way of sending one).
        const keyed = KEYED_FIELD.exec(part.fieldname);
        if (part.fieldname.endsWith('[]')) {
          const name = part.fieldname.slice(0, -2);
          const list = fields[name];
          fields[name] = Array.isArray(list) ? [...list, value] : [value];
        } else if (keyed) {
          // `daysattended[<learner id>]`: one value of the field `daysattended`, by key.
          const [, name = '', key = ''] = keyed;
          const map = fields[name];
          fields[name] = { ...(typeof map === 'object' && !Array.isArray(map) ? map : {}), [key]: value };
        } else fields[part.fieldname] = value;
      }
    }
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 413) throw new AppError(413);
    request.log.info({ err: error }, 'multipart body not readable');
    throw new AppError(400, INPUT_MESSAGES.formUnreadable);
  }
  const unstorable = unstorableTexts({ ...fields });
  // The file's name is kept too (a fee journal's, say): the same rule.
  if (file && !isStorableText(file.filename)) unstorable[file.field] = [INPUT_MESSAGES.textInvalid];
  if (Object.keys(unstorable).length > 0) throw invalid(unstorable);
  return { fields: { ...fields }, file, notText: new Set() };
}

/** `name[key]`: a keyed field's part in a multipart form. */
const KEYED_FIELD = /^([^[\]]+)\[([^[\]]+)\]$/;

/** A JSON object of plain values, within the keyed field's bound. */
function isKeyedTexts(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.values(value);
  return entries.length <= MAX_MAP_ENTRIES && entries.every((item) => item === null || typeof item !== 'object');
}

/** Fields checked against a shared schema; a 422 naming the fields when they do not pass. */
export function parseFields<Schema extends z.ZodType>(schema: Schema, fields: Record<string, unknown>): z.infer<Schema> {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    // The same words as the JSON routes' validation (plugins/errors.ts) for a field not accepted.
    const names =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : [issue.path.join('.') || '_'];
    // A list or keyed texts where the form has one value (`lastname: ["a"]`, `lastname: {a: 1}`): the value is refused as such, not as missing.
    const sent = fields[String(issue.path[0])];
    const listForOne = issue.code === 'invalid_type' && issue.path.length === 1 && sent !== null && typeof sent === 'object';
    const message =
      issue.code === 'unrecognized_keys' ? INPUT_MESSAGES.fieldNotAccepted : listForOne ? INPUT_MESSAGES.valueInvalid : issue.message;
    for (const name of names) errors[name] = [...(errors[name] ?? []), message];
  }
  throw invalid(errors);
}
