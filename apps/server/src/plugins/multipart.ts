import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, type FieldErrors, invalid } from '../errors.js';

/** The largest file any form takes: a workbook of a whole school, or a learner's photo. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export function registerMultipart(app: FastifyInstance): Promise<void> {
  return app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 60, parts: 70, fieldSize: 64 * 1024 },
  }) as unknown as Promise<void>;
}

export interface UploadedFile {
  field: string;
  filename: string;
  buffer: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  file: UploadedFile | null;
}

/**
 * A multipart form's text fields and its one file (read into memory within MAX_UPLOAD_BYTES).
 * A JSON body is read as fields too, so the same route serves both.
 */
export async function readForm(request: FastifyRequest): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    return {
      fields: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value === null ? '' : String(value)])),
      file: null,
    };
  }
  const fields: Record<string, string> = Object.create(null);
  let file: UploadedFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer();
        if (buffer.length > 0) file = { field: part.fieldname, filename: part.filename, buffer };
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
      }
    }
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 413) throw new AppError(413);
    throw error;
  }
  return { fields: { ...fields }, file };
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
    const message = issue.code === 'unrecognized_keys' ? 'This field is not accepted' : issue.message;
    for (const name of names) errors[name] = [...(errors[name] ?? []), message];
  }
  throw invalid(errors);
}
