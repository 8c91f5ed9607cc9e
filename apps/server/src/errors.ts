import { type CatalogueMessage, ERROR_MESSAGES } from '@mustard/shared';

export type FieldErrors = Record<string, string[]>;

/**
 * The one error type of the server. Services throw it; the error handler turns it into the
 * spec's catalogue answer (§8). `message` defaults to the catalogue text for the status, and is
 * only ever a catalogue text (issue 11 point 6): the web translates what the server says by
 * finding it in the catalogue, so a text written at the throw would reach people untranslated.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message?: CatalogueMessage | AboutMessage,
    readonly errors?: FieldErrors,
    /** More the answer carries for the screen to act on (a save's conflicting cells). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? catalogueMessage(statusCode));
    this.name = 'AppError';
  }
}

export function catalogueMessage(statusCode: number): string {
  return (ERROR_MESSAGES as Record<number, string>)[statusCode] ?? ERROR_MESSAGES[500];
}

export const unauthorized = () => new AppError(401);
export const forbidden = () => new AppError(403);
export const notFound = () => new AppError(404);
/**
 * A catalogue text followed by what it is about ("…for the term: Grace Auma"): the web
 * translates the text and keeps the rest as it came (translateMessage).
 */
export type AboutMessage = `${CatalogueMessage}: ${string}`;
export const conflict = (message: CatalogueMessage, about?: string) =>
  new AppError(409, about === undefined ? message : (`${message}: ${about}` as AboutMessage));
/** A PostgreSQL error's SQLSTATE, from node-postgres or PGlite alike. */
export function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/**
 * Whether a delete was refused because other rows still point at the row: 23503
 * foreign_key_violation (PostgreSQL up to 17), 23001 restrict_violation (18, PGlite 0.5).
 */
export function stillReferenced(error: unknown): boolean {
  return ['23503', '23001'].includes(sqlState(error) ?? '');
}

/** A 422 naming the fields at fault, the shape the web puts next to each field. */
export const invalid = (errors: FieldErrors) => new AppError(422, ERROR_MESSAGES[422], errors);
