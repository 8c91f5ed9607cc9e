import ExcelJS from 'exceljs';
import { TEXT_COLUMNS, UPLOAD_COLUMNS } from './upload-columns.js';

export const TEMPLATE_FILE_NAME = 'Students-template.xlsx';

/** Rows of the template formatted as text in the code columns (enough for a whole school). */
const FORMATTED_ROWS = 2000;

const GENERAL_NOTES = [
  'Keep the first row (the headers). Columns may be in any order; headers are matched ignoring case, spaces and underscores, and friendly names work too (Student ID, First name, Class, Date of birth, Passcode, LIN).',
  'Replace the example row with your learners, one a row.',
  'Every row is checked before anything is saved: if any row is not valid, nothing is saved and each problem is listed by its row number and column.',
  'Uploading the same file again changes nothing; a changed row updates that learner (the student id is the key). A column left out of the file is not changed for learners already at the school; a blank cell clears the field.',
  'Without student ids, with "give new learners ids" ticked: a row with the same first name, last name, other name, class, stream and date of birth (ignoring case) as a learner already at the school updates that learner, so uploading the file again does not duplicate anyone; the other rows get the school\'s next ids, in the order of the sheet.',
  'At most 5,000 learners and 5 MB a file.',
];

/**
 * The upload template: the header row (exactly the columns the upload reads, in order), one
 * example row, and an "Instructions" sheet explaining each column. `categories` are the school's
 * student category names, listed in the instructions.
 */
export async function uploadTemplate(categories: ReadonlyArray<string>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet('Students');
  sheet.addRow(UPLOAD_COLUMNS.map((column) => column.key)).font = { bold: true };
  sheet.addRow(UPLOAD_COLUMNS.map((column) => column.example || null));
  UPLOAD_COLUMNS.forEach((column, index) => {
    const sheetColumn = sheet.getColumn(index + 1);
    sheetColumn.width = Math.max(12, column.key.length + 4);
    if (TEXT_COLUMNS.has(column.key)) {
      // Cells, not the column's style: ExcelJS writes a column style Excel applies only to new cells.
      for (let row = 2; row <= FORMATTED_ROWS + 1; row++) sheet.getCell(row, index + 1).numFmt = '@';
    }
  });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];

  const instructions = workbook.addWorksheet('Instructions');
  instructions.columns = [
    { header: 'Column', width: 16 },
    { header: 'What to write', width: 110 },
  ];
  instructions.getRow(1).font = { bold: true };
  for (const column of UPLOAD_COLUMNS) {
    const explain =
      column.key === 'category' && categories.length > 0
        ? `${column.explain} This school's categories: ${categories.join(', ')}.`
        : column.explain;
    instructions.addRow([column.key, explain]);
  }
  instructions.addRow([]);
  for (const note of GENERAL_NOTES) instructions.addRow(['Note', note]);
  instructions.getColumn(2).alignment = { wrapText: true, vertical: 'top' };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
