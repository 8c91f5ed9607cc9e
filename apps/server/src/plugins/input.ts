import { INPUT_MESSAGES, isStorableText } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import { type FieldErrors, invalid } from '../errors.js';

/** Deeper than any form of the product nests its fields; a body nested deeper is refused. */
const MAX_DEPTH = 32;

/**
 * The names (`lower.D1`, `marks.0.mark`) of every text in `value`, keys included, that cannot be
 * stored: a NUL or a lone surrogate (see isStorableText). Walked with a stack of its own, so a
 * body nested ten thousand deep costs no recursion; it is bounded by the body limit.
 */
export function unstorableTexts(value: unknown, root = ''): FieldErrors {
  const errors: FieldErrors = {};
  const stack: Array<[unknown, string, number]> = [[value, root, 0]];
  while (stack.length > 0) {
    const [current, name, depth] = stack.pop() as [unknown, string, number];
    if (typeof current === 'string') {
      if (!isStorableText(current)) errors[name || '_'] = [INPUT_MESSAGES.textInvalid];
      continue;
    }
    if (current === null || typeof current !== 'object' || ArrayBuffer.isView(current)) continue;
    if (depth >= MAX_DEPTH) {
      errors[name || '_'] = [INPUT_MESSAGES.valueInvalid];
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      const path = name ? `${name}.${key}` : key;
      if (!isStorableText(key)) errors[name || '_'] = [INPUT_MESSAGES.textInvalid];
      else stack.push([item, path, depth + 1]);
    }
  }
  return errors;
}

/**
 * Every route, whatever its schema: a text the database cannot store is refused with a 422
 * naming the field, before validation, instead of failing in the database as a 500. The shared
 * text schemas refuse the same (so the web and the spreadsheet imports say so too); this guard
 * keeps a route whose schema takes a plain string from ever reaching the database with one.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const errors = {
      ...unstorableTexts(request.params),
      ...unstorableTexts(request.query),
      ...unstorableTexts(request.body),
    };
    if (Object.keys(errors).length > 0) throw invalid(errors);
  });
}
