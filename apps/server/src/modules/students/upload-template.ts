import ExcelJS from 'exceljs';
import type { TemplateExample } from './student-ids.js';
import { TEXT_COLUMNS, UPLOAD_COLUMNS, type UploadColumnKey } from './upload-columns.js';

export const TEMPLATE_FILE_NAME = 'Students-template.xlsx';

/** Rows of the template formatted as text in the code columns (enough for a whole school). */
const FORMATTED_ROWS = 2000;

const GENERAL_NOTES = [
  'Keep the first row (the headers). Columns may be in any order; headers are matched ignoring case, spaces and underscores, and friendly names work too (Student ID, First name, Class, Date of birth, Passcode, LIN).',
  'Write your learners on the Students sheet, one a row, below the headers. The Example column above shows how; it is never uploaded.',
  'Every row is checked before anything is saved: if any row is not valid, nothing is saved and each problem is listed by its row number and column.',
  'Uploading the same file again changes nothing; a changed row updates that learner (the student id is the key). A column left out of the file is not changed for learners already at the school; a blank cell clears the field.',
  'Without student ids, with "give new learners ids" ticked: a row with the same first name, last name, other name, class, stream and date of birth (ignoring case) as a learner already at the school updates that learner, so uploading the file again does not duplicate anyone; the other rows get the school\'s next ids, in the order of the sheet.',
  'At most 5,000 learners and 5 MB a file.',
];

/**
 * The upload template: the Students sheet holds only the header row (exactly the columns the
 * upload reads, in order), so nothing in it is ever uploaded by mistake: an example row there was
 * once imported as a real learner. The "Instructions" sheet explains each column beside an
 * example in the school's own words (its next id, a class and stream it has); `categories` are
 * the school's student category names.
 */
export async function uploadTemplate(categories: ReadonlyArray<string>, school: TemplateExample): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet('Students');
  sheet.addRow(UPLOAD_COLUMNS.map((column) => column.key)).font = { bold: true };
  UPLOAD_COLUMNS.forEach((column, index) => {
    const sheetColumn = sheet.getColumn(index + 1);
    sheetColumn.width = Math.max(12, column.key.length + 4);
    if (TEXT_COLUMNS.has(column.key)) {
      // Cells, not the column's style: ExcelJS writes a column style Excel applies only to new cells.
      for (let row = 2; row <= FORMATTED_ROWS + 1; row++) sheet.getCell(row, index + 1).numFmt = '@';
    }
  });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];

  const example: Partial<Record<UploadColumnKey, string>> = {
    studentid: school.studentid,
    form: school.form,
    stream: school.stream ?? '',
    category: categories[0] ?? '',
    paymentcode: `${school.studentid.replace(/\W+/g, '')}`,
  };
  const instructions = workbook.addWorksheet('Instructions');
  instructions.columns = [
    { header: 'Column', width: 16 },
    { header: 'Example', width: 18 },
    { header: 'What to write', width: 100 },
  ];
  instructions.getRow(1).font = { bold: true };
  for (const column of UPLOAD_COLUMNS) {
    const explain =
      column.key === 'category' && categories.length > 0
        ? `${column.explain} This school's categories: ${categories.join(', ')}.`
        : column.explain;
    instructions.addRow([column.key, example[column.key] ?? column.example ?? '', explain]);
  }
  instructions.addRow([]);
  for (const note of GENERAL_NOTES) instructions.addRow(['Note', '', note]);
  instructions.getColumn(3).alignment = { wrapText: true, vertical: 'top' };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
