import { UploadResultSchema } from '../schemas/common.js';
import { FeeJournalFieldsSchema, StatementQuerySchema, StatementResponseSchema } from '../schemas/fees.js';
import { defineEndpoint } from './definition.js';

/* Fees (spec §7 "Students"): the journal a bursar uploads, and a learner's statement. */

const addStudents = { action: 'create', subject: 'student' } as const;

/** The fee journal workbook to fill in. */
export const journalTemplateEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/uploads/studentjournals/template',
  access: addStudents,
  response: 'file',
});

/** A term's fee journal: invoices and receipts per learner, from the columns at the given positions. */
export const uploadJournalEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/uploads/studentjournals',
  access: addStudents,
  body: FeeJournalFieldsSchema,
  file: { field: 'file', required: true },
  response: UploadResultSchema,
});

/** A learner's statement: every fee line with the balance after it. */
export const statementEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/student/statement',
  access: { action: 'read', subject: 'student' },
  query: StatementQuerySchema,
  response: StatementResponseSchema,
});
