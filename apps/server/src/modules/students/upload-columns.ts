/**
 * The columns a learners' upload reads (issue 5 point 3), in the template's order. The template
 * writes these headers; the upload finds them in any order, case-insensitively, ignoring
 * spaces, underscores and other punctuation, and also by the friendly names people write
 * ("Student ID", "First name", "Class", "Date of birth", "Passcode", …). Other columns are
 * ignored.
 */
export const UPLOAD_COLUMNS = [
  {
    key: 'studentid',
    aliases: ['studentno', 'studentnumber', 'admissionno', 'admissionnumber'],
    example: 'MPS/0001',
    explain:
      'The learner\'s id at the school, the key of the upload: a row whose id a learner already has updates that learner. Leave it blank and tick "give new learners ids" to have the school\'s next ids given (MPS/0001, MPS/0002, …).',
  },
  { key: 'firstname', aliases: ['givenname'], example: 'Sarah', explain: 'Required.' },
  { key: 'lastname', aliases: ['surname', 'familyname'], example: 'Nakato', explain: 'Required.' },
  { key: 'othername', aliases: ['othernames', 'middlename'], example: '', explain: 'Optional.' },
  { key: 'gender', aliases: ['sex'], example: 'F', explain: 'F or M (Female and Male are read too).' },
  {
    key: 'dob',
    aliases: ['dateofbirth', 'birthdate', 'birthday'],
    example: '2015-03-14',
    explain: 'Date of birth: a date cell, or text written as YYYY-MM-DD (2015-03-14).',
  },
  { key: 'form', aliases: ['class'], example: 'P4', explain: 'Required: the class, as the school names it (P4, S2, …).' },
  { key: 'stream', aliases: [], example: 'East', explain: 'Optional.' },
  {
    key: 'category',
    aliases: ['studentcategory'],
    example: '',
    explain: 'Optional: the NAME of one of the school\'s student categories (Settings, Student categories), e.g. "Day scholar".',
  },
  { key: 'paymentcode', aliases: [], example: 'MPS100001', explain: 'Optional: the code the bank or mobile money uses for fees.' },
  { key: 'address', aliases: [], example: 'Kampala', explain: 'Optional.' },
  {
    key: 'phone',
    aliases: ['telephone', 'phonenumber', 'tel'],
    example: '0772123456',
    explain: 'Optional. Format the column as text so a leading 0 is kept; a number is kept as Excel shows it.',
  },
  { key: 'email', aliases: ['emailaddress'], example: '', explain: 'Optional: a valid email address.' },
  { key: 'house', aliases: [], example: 'Red', explain: 'Optional.' },
  { key: 'lin', aliases: ['learneridentificationnumber'], example: '', explain: 'Optional: the Learner Identification Number.' },
  { key: 'code', aliases: ['passcode'], example: '', explain: 'Optional: the passcode for parents.' },
  { key: 'status', aliases: [], example: 'active', explain: 'active or inactive; blank means active.' },
  {
    key: 'guardian_email',
    aliases: ['guardianemail', 'guardiansemail', 'parentemail', 'parentsemail', 'guardianemailaddress', 'parentemailaddress'],
    example: '',
    explain: "Optional: the parent's or guardian's email address, where the report cards are emailed (one address).",
  },
] as const;

export type UploadColumnKey = (typeof UPLOAD_COLUMNS)[number]['key'];

/** Columns whose values are codes: the template formats them as text so Excel keeps leading zeros. */
export const TEXT_COLUMNS: ReadonlySet<UploadColumnKey> = new Set(['studentid', 'paymentcode', 'phone', 'lin', 'code', 'dob']);

/** "Student ID", "student_id" and "STUDENTID" all become "studentid". */
export function normaliseHeader(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const BY_NAME: ReadonlyMap<string, UploadColumnKey> = new Map(
  UPLOAD_COLUMNS.flatMap((column) => [column.key, ...column.aliases].map((name) => [name, column.key] as const)),
);

/**
 * Where each known column is in a header row (0-based). The first of two columns with the same
 * meaning wins. A Map, never a plain object: a header cell "__proto__" is just text.
 */
export function locateColumns(header: ReadonlyArray<string>): Map<UploadColumnKey, number> {
  const found = new Map<UploadColumnKey, number>();
  header.forEach((text, index) => {
    const key = BY_NAME.get(normaliseHeader(text));
    if (key && !found.has(key)) found.set(key, index);
  });
  return found;
}
