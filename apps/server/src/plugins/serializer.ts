import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Responses are written by fast-json-stringify from each route's zod response schema turned
 * into JSON Schema once, at start: several times faster than validating every answer with
 * zod, and it writes only the properties the schema declares, so a field added to a row can
 * never leak into a response. A schema JSON Schema cannot express falls back to zod.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  const schema = route.schema;
  if (schema instanceof z.ZodType) {
    try {
      return fastJson(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }) as object) as (
        data: unknown,
      ) => string;
    } catch {
      // fall through to zod
    }
  }
  return (zodSerializerCompiler as FastifySerializerCompiler<unknown>)(route);
};
