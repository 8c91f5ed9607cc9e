import { schemaResolver, type UseFormReturnType, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from './api.js';
import { translateMessage } from './messages.js';

export interface SchemaForm<Values extends Record<string, unknown>> {
  form: UseFormReturnType<Values>;
  /** Props for an input: value, change handler and its error in the user's language. */
  field(path: keyof Values & string, options?: { type?: 'input' | 'checkbox' }): ReturnType<UseFormReturnType<Values>['getInputProps']>;
  /** Puts a 422 answer's field messages (spec §8) beside their fields; false for any other error. */
  showServerErrors(error: unknown): boolean;
}

/**
 * One way to build a form: the shared zod schema validates (the same rules the server applies),
 * each field shows its first message, translated.
 */
export function useSchemaForm<Values extends Record<string, unknown>>(schema: z.ZodType, initialValues: Values): SchemaForm<Values> {
  useTranslation(); // re-render in the new language when it changes
  const form = useForm<Values>({ mode: 'controlled', initialValues, validate: schemaResolver(schema, { sync: true }) });
  return {
    form,
    field(path, options) {
      const props = form.getInputProps(path, options);
      return { ...props, error: typeof props.error === 'string' ? translateMessage(props.error) : props.error };
    },
    showServerErrors(error) {
      if (!(error instanceof ApiError) || error.status !== 422 || !error.data?.errors) return false;
      form.setErrors(Object.fromEntries(Object.entries(error.data.errors).map(([field, messages]) => [field, messages[0] ?? ''])));
      return true;
    },
  };
}

/**
 * A filter's refusals by field (the first path segment), each with its first message translated:
 * what the filter pages show beside their fields before anything is sent.
 */
export function fieldErrorsOfIssues(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0])] ??= translateMessage(issue.message);
  return errors;
}
