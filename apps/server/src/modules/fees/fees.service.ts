import { createHash } from 'node:crypto';
import { STUDENT_MESSAGES as M, type StatementLine } from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { lockInTenant } from '../../db/tenant.js';
import { AppError, type FieldErrors, notFound } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { type Cell, cellText, type Sheet } from '../../resources/spreadsheet.js';
import {
  insertJournal,
  insertStatementLines,
  journalOfFile,
  learnerExists,
  learnerKeys,
  linesOfJournal,
  resetJournal,
  statementLinesOf,
} from './fees.repository.js';
import { invoiceParticulars, JOURNAL_COLUMNS, RECEIPT_PARTICULARS } from './fees-template.js';

/*
 * Fee journals and statements (issue 5 points 4 and 5). The sheet's layout is documented in
 * fees-template.ts. An upload is all or nothing: every row is checked first, and any bad row
 * answers 422 with errors keyed "<row>.<field>" (studentid, date, invoice, receipt) and
 * nothing written. A good journal is written in one transaction.
 *
 * Idempotency: a journal is keyed by the file's SHA-256, term and year. Uploading the same
 * file again for the same term and year replaces that journal's lines (delete, then insert),
 * so nothing is ever counted twice. Blank dates take the date of the journal's FIRST upload,
 * so a repeat on another day gives the same lines. The counts compare the lines written with
 * the lines they replace, by content (learner, date, particulars, category, amount):
 * `unchanged` lines were there before, `updated` lines replace a line that differed (possible
 * only when the positions changed), `created` lines are new. A first upload reports every line
 * as created; the same file again reports them all unchanged.
 */

export type Term = 'I' | 'II' | 'III';
export type Category = 'invoice' | 'receipt';

export interface JournalOptions {
  term: Term;
  year: number;
  /** 1-based column positions of the amounts. */
  invoice: number;
  receipt: number;
  /** YYYY-MM-DD: the date of rows whose date is blank. */
  defaultDate: string;
}

export interface LearnerKey {
  id: string;
  studentid: string;
  paymentcode: string | null;
}

export interface JournalLine {
  student_id: string;
  date: string;
  particulars: string;
  category: Category;
  amount: number;
}

const MAX_AMOUNT = 1e12; // numeric(14, 2)
const MAX_PARTICULARS = 250;

/**
 * A learner found by the text of column A: a student id as written, then a student id or a
 * payment code without regard to case. A key two learners share (a payment code, or ids that
 * differ only in case) finds no one rather than the wrong one.
 */
export function learnerFinder(learners: ReadonlyArray<LearnerKey>): (key: string) => string | null {
  const exact = new Map<string, string>();
  const folded = new Map<string, string | null>();
  const codes = new Map<string, string | null>();
  const add = (map: Map<string, string | null>, key: string, id: string) => map.set(key, map.has(key) ? null : id);
  for (const learner of learners) {
    exact.set(learner.studentid.trim(), learner.id);
    add(folded, learner.studentid.trim().toLowerCase(), learner.id);
    const code = learner.paymentcode?.trim().toLowerCase();
    if (code) add(codes, code, learner.id);
  }
  return (key) => {
    const wanted = key.trim();
    return exact.get(wanted) ?? folded.get(wanted.toLowerCase()) ?? codes.get(wanted.toLowerCase()) ?? null;
  };
}

/** An amount: a number, or text with thousands separators; blank or "-" is 0. Undefined when not a valid amount. */
export function parseAmount(cell: Cell | undefined): number | undefined {
  let value: number;
  if (cell === null || cell === undefined) return 0;
  if (typeof cell === 'number') value = cell;
  else if (typeof cell === 'string') {
    const text = cell.replace(/[,\s\u00a0\u202f]/g, '');
    if (text === '' || text === '-') return 0;
    if (!/^\d+(\.\d+)?$/.test(text) && !/^\.\d+$/.test(text)) return undefined;
    value = Number(text);
  } else return undefined;
  if (!Number.isFinite(value) || value < 0) return undefined;
  const rounded = Math.round(value * 100) / 100;
  return rounded < MAX_AMOUNT ? rounded : undefined;
}

/** A date cell or YYYY-MM-DD text as YYYY-MM-DD; blank gives the fallback; undefined when not a date. */
export function parseDate(cell: Cell | undefined, fallback: string): string | undefined {
  if (cell === null || cell === undefined) return fallback;
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return undefined;
    const text = cell.toISOString().slice(0, 10);
    return /^\d{4}-/.test(text) ? text : undefined;
  }
  if (typeof cell !== 'string') return undefined;
  const text = cell.trim();
  if (text === '') return fallback;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === text ? text : undefined;
}

/**
 * The statement lines of a journal sheet, or every bad row's errors keyed "<row>.<field>".
 * Pure: the learners are given.
 */
export function journalLines(
  sheet: Sheet,
  options: JournalOptions,
  findLearner: (key: string) => string | null,
): { lines: JournalLine[]; errors: FieldErrors } {
  const lines: JournalLine[] = [];
  const errors: FieldErrors = {};
  const column = (cells: Cell[], position: number) => cells[position - 1];
  for (const row of sheet.rows) {
    const fail = (field: string, message: string) => {
      errors[`${row.number}.${field}`] = [message];
    };
    const key = cellText(column(row.cells, JOURNAL_COLUMNS.student));
    const studentId = key === null ? null : findLearner(key);
    if (studentId === null) fail('studentid', M.unknownStudent);
    const date = parseDate(column(row.cells, JOURNAL_COLUMNS.date), options.defaultDate);
    if (date === undefined) fail('date', M.dateInvalid);
    const invoice = parseAmount(column(row.cells, options.invoice));
    if (invoice === undefined) fail('invoice', M.amountInvalid);
    const receipt = parseAmount(column(row.cells, options.receipt));
    if (receipt === undefined) fail('receipt', M.amountInvalid);
    if (studentId === null || date === undefined || invoice === undefined || receipt === undefined) continue;
    const particulars = cellText(column(row.cells, JOURNAL_COLUMNS.particulars))?.slice(0, MAX_PARTICULARS) ?? null;
    if (invoice > 0) {
      lines.push({
        student_id: studentId,
        date,
        particulars: particulars ?? invoiceParticulars(options.term, options.year),
        category: 'invoice',
        amount: invoice,
      });
    }
    if (receipt > 0) {
      lines.push({ student_id: studentId, date, particulars: particulars ?? RECEIPT_PARTICULARS, category: 'receipt', amount: receipt });
    }
  }
  return { lines, errors };
}

/** How the lines written compare with the lines they replace (see the rule at the top). */
export function compareLines(before: ReadonlyArray<JournalLine>, after: ReadonlyArray<JournalLine>) {
  const key = (line: JournalLine) => [line.student_id, line.date, line.category, line.amount.toFixed(2), line.particulars].join('\u0000');
  const remaining = new Map<string, number>();
  for (const line of before) remaining.set(key(line), (remaining.get(key(line)) ?? 0) + 1);
  let unchanged = 0;
  for (const line of after) {
    const left = remaining.get(key(line)) ?? 0;
    if (left > 0) {
      remaining.set(key(line), left - 1);
      unchanged += 1;
    }
  }
  const updated = Math.min(after.length - unchanged, before.length - unchanged);
  const created = after.length - unchanged - updated;
  const removed = before.length - unchanged - updated;
  return { created, updated, unchanged, removed };
}

/** YYYY-MM-DD of a moment in the server's time zone (the school's day). */
export function localDate(moment: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

export const sha256 = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex');

export interface JournalUpload {
  fileName: string | null;
  file: Buffer;
  sheet: Sheet;
  term: Term;
  year: number;
  invoice: number;
  receipt: number;
}

/** Checks every row, then writes the journal and its lines (in the caller's transaction). */
export async function uploadJournal({ tx }: ActionContext, upload: JournalUpload) {
  const { term, year } = upload;
  const hash = sha256(upload.file);
  // One journal upload at a time per school: the same file sent twice at once (a double click on
  // a slow connection) replaces itself instead of colliding on the journal's unique key.
  await lockInTenant(tx, 'fee-journals');
  const learners = await learnerKeys(tx);
  const existing = await journalOfFile(tx, { sha256: hash, term, year });
  const defaultDate = localDate(existing ? new Date(existing.uploaded_at as unknown as Date | string) : new Date());
  const { lines, errors } = journalLines(
    upload.sheet,
    { term, year, invoice: upload.invoice, receipt: upload.receipt, defaultDate },
    learnerFinder(learners),
  );
  if (Object.keys(errors).length > 0) throw new AppError(422, M.rowsInvalid, errors);

  let journalId: string;
  let before: JournalLine[] = [];
  if (existing) {
    journalId = existing.id;
    before = await linesOfJournal(tx, journalId);
    await resetJournal(tx, journalId, upload);
  } else {
    journalId = newId();
    await insertJournal(tx, {
      id: journalId,
      sha256: hash,
      fileName: upload.fileName,
      term,
      year,
      invoice: upload.invoice,
      receipt: upload.receipt,
    });
  }
  // Ids are time-ordered and made in sheet order: a learner's lines of one date keep that order.
  await insertStatementLines(tx, { id: journalId, term, year }, lines);
  const counts = compareLines(before, lines);
  await recordAudit(tx, {
    action: existing ? 'update' : 'create',
    entity: 'fee_journals',
    entityId: journalId,
    before: existing
      ? { lines: before.length, invoice_position: existing.invoice_position, receipt_position: existing.receipt_position }
      : undefined,
    after: {
      file_name: upload.fileName,
      sha256: hash,
      term,
      year,
      invoice_position: upload.invoice,
      receipt_position: upload.receipt,
      lines: lines.length,
      ...counts,
    },
  });
  return counts;
}

/** A learner's statement: lines by date (then as written), each with the balance after it. */
export async function learnerStatement({ tx }: ActionContext, studentId: string) {
  if (!(await learnerExists(tx, studentId))) throw notFound();
  const rows = await statementLinesOf(tx, studentId);
  let balance = 0;
  const statement: StatementLine[] = rows.map((row) => {
    const amount = Number(row.amount);
    balance = Math.round((balance + (row.category === 'invoice' ? amount : -amount)) * 100) / 100;
    return { id: row.id, date: row.date, particulars: row.particulars, category: row.category, amount, balance };
  });
  return { statement, balance };
}
