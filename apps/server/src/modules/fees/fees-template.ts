import { FEE_JOURNAL_POSITIONS } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { TemplateExample } from '../students/student-ids.js';

/*
 * The fee journal sheet (issue 5 point 4, spec §3 "Financial upload fields"): the sheet the
 * upload's invoice and receipt positions point into.
 *
 * - The journal is the FIRST worksheet of the workbook. Row 1 holds the headers (their texts
 *   are not read); every following row is one learner's entry. Empty rows are skipped.
 * - Column A: the learner's student id OR payment code (required; matched without regard to
 *   case; a student id wins over a payment code).
 * - Column B: the learner's name, for the reader only: never used to find the learner.
 * - Columns C and D: class and stream, for the reader only (ignored).
 * - Column E: the date: a date cell or text YYYY-MM-DD. Blank means the upload's date (the
 *   date the same file was first uploaded for that term and year, so a repeat changes nothing).
 * - Column F: particulars. Blank means "Fees, Term {term} {year}" for the invoice line and
 *   "Payment" for the receipt line.
 * - The column at the INVOICE position (1-based; default 7, column G): the amount invoiced.
 * - The column at the RECEIPT position (1-based; default 42, column AP): the amount received.
 * - Any other column (in the template H to AO) may hold the fee breakdown and is ignored.
 *
 * A row gives an invoice line when its invoice amount is above 0 and a receipt line when its
 * receipt amount is above 0 (so a row may give both, one or none). Amounts are numbers, or
 * text with thousands separators ("1,250,000"); blank or "-" is 0.
 */
export const JOURNAL_COLUMNS = { student: 1, name: 2, form: 3, stream: 4, date: 5, particulars: 6 } as const;
const DEFAULT_INVOICE_POSITION = FEE_JOURNAL_POSITIONS.invoice;
const DEFAULT_RECEIPT_POSITION = FEE_JOURNAL_POSITIONS.receipt;
export const JOURNAL_TEMPLATE_FILE_NAME = 'Fee-journal-template.xlsx';

export const JOURNAL_HEADERS = {
  student: 'Student id or payment code',
  name: 'Name',
  form: 'Class',
  stream: 'Stream',
  date: 'Date',
  particulars: 'Particulars',
  invoice: 'Invoice (amount invoiced)',
  receipt: 'Receipt (amount received)',
} as const;

/** The fee breakdown columns the template shows after the invoice column (ignored on upload). */
const BREAKDOWN = ['Tuition', 'Meals', 'Development', 'Uniform'] as const;

/** `1` is A, `7` is G, `42` is AP. */
export function columnLetter(position: number): string {
  let letters = '';
  for (let n = position; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** The default invoice particulars of a journal for a term and year. */
export const invoiceParticulars = (term: string, year: number) => `Fees, Term ${term} ${year}`;
export const RECEIPT_PARTICULARS = 'Payment';

function instructions(example: TemplateExample, year: number): string[][] {
  const invoice = columnLetter(DEFAULT_INVOICE_POSITION);
  const receipt = columnLetter(DEFAULT_RECEIPT_POSITION);
  const breakdownFrom = columnLetter(DEFAULT_INVOICE_POSITION + 1);
  const breakdownTo = columnLetter(DEFAULT_RECEIPT_POSITION - 1);
  return [
    ['How to fill in the fee journal'],
    [],
    ['The journal is the first sheet of the workbook ("Journal"). Row 1 holds the headers; every following row is one learner.'],
    ['Column', 'What it holds'],
    ['A', 'The learner’s student id or payment code (required).'],
    ['B', 'The learner’s name: for you to read; it is not used to find the learner.'],
    ['C, D', 'Class and stream: for you to read; ignored.'],
    ['E', 'The date: a date cell or text as YYYY-MM-DD. Blank means the date the journal is uploaded.'],
    ['F', 'Particulars. Blank means "Fees, Term <term> <year>" for the invoice and "Payment" for the receipt.'],
    [
      invoice,
      `The amount invoiced (the invoice position, ${DEFAULT_INVOICE_POSITION}). If your journal keeps it in another column, give that column's number as the invoice position when uploading.`,
    ],
    [`${breakdownFrom} to ${breakdownTo}`, 'The fee breakdown (tuition, meals and so on): for you to read; ignored.'],
    [
      receipt,
      `The amount received (the receipt position, ${DEFAULT_RECEIPT_POSITION}). If your journal keeps it in another column, give that column's number as the receipt position when uploading.`,
    ],
    [],
    ['A row gives an invoice line when its invoice amount is above 0, and a receipt line when its receipt amount is above 0.'],
    ['Amounts are numbers or text with thousands separators, such as 1,250,000. A blank amount or "-" is 0.'],
    ['Every row is checked before anything is saved: if any row is wrong, nothing is saved and each wrong row is named by its number.'],
    ['Uploading the same file again for the same term and year replaces that journal’s lines: nothing is added twice.'],
    [],
    ['An example row of the Journal sheet (this sheet is never uploaded):'],
    ['Column', 'Example'],
    ['A', example.studentid],
    ['B', 'Nakato Sarah'],
    ['C, D', [example.form, example.stream].filter(Boolean).join(' ')],
    ['E', `${year}-02-02`],
    ['F', invoiceParticulars('I', year)],
    [invoice, '450,000'],
    [
      `${breakdownFrom} to ${columnLetter(DEFAULT_INVOICE_POSITION + BREAKDOWN.length)}`,
      '300,000  100,000  30,000  20,000 (tuition, meals, development, uniform)',
    ],
    [receipt, '200,000'],
  ];
}

/**
 * The journal template: the columns at their default positions with their headers only (an
 * example row there would be uploaded, or refused, with the school's learners), and an
 * "Instructions" sheet with an example in the school's own ids and classes. The journal sheet
 * comes first: the upload reads the first sheet.
 */
export async function journalTemplate(example: TemplateExample, now = new Date()): Promise<Buffer> {
  const year = now.getFullYear();
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet('Journal');
  const header = sheet.getRow(1);
  const put = (position: number, title: string, width: number) => {
    header.getCell(position).value = title;
    sheet.getColumn(position).width = width;
  };
  put(JOURNAL_COLUMNS.student, JOURNAL_HEADERS.student, 28);
  put(JOURNAL_COLUMNS.name, JOURNAL_HEADERS.name, 26);
  put(JOURNAL_COLUMNS.form, JOURNAL_HEADERS.form, 8);
  put(JOURNAL_COLUMNS.stream, JOURNAL_HEADERS.stream, 10);
  put(JOURNAL_COLUMNS.date, JOURNAL_HEADERS.date, 12);
  put(JOURNAL_COLUMNS.particulars, JOURNAL_HEADERS.particulars, 28);
  put(DEFAULT_INVOICE_POSITION, JOURNAL_HEADERS.invoice, 26);
  for (const [index, title] of BREAKDOWN.entries()) put(DEFAULT_INVOICE_POSITION + 1 + index, title, 13);
  put(DEFAULT_RECEIPT_POSITION, JOURNAL_HEADERS.receipt, 26);
  header.font = { bold: true };
  sheet.getColumn(JOURNAL_COLUMNS.date).numFmt = 'yyyy-mm-dd';
  for (const position of [DEFAULT_INVOICE_POSITION, DEFAULT_RECEIPT_POSITION]) sheet.getColumn(position).numFmt = '#,##0';
  sheet.views = [{ state: 'frozen', ySplit: 1 }];

  const help = workbook.addWorksheet('Instructions');
  for (const line of instructions(example, year)) help.addRow(line);
  help.getRow(1).font = { bold: true, size: 14 };
  help.getRow(4).font = { bold: true };
  help.getColumn(1).width = 14;
  help.getColumn(2).width = 110;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
