import { BUSINESS_MESSAGES, STOCK_MESSAGES } from './business/messages.js';
import { ACCOUNT_MESSAGES, BUSINESS_REPORT_MESSAGES, EFRIS_MESSAGES, PAYMENT_MESSAGES, SALES_MESSAGES } from './business/messages-sales.js';
import { COMMENT_MESSAGES } from './comments/messages.js';
import { REMARK_MESSAGES } from './comments/remark-messages.js';
import { GRADING_RULE_MESSAGES } from './grading/engine/rule-messages.js';
/**
 * The error catalogue (spec §8) and the validation messages (spec §5).
 * The server answers with these texts and the web shows them, so they live here once.
 */
export const ERROR_MESSAGES = {
  400: 'The request could not be read',
  401: 'Please login',
  403: 'You are not permitted to access this content',
  404: 'Sorry! the data you are looking for could not be found',
  409: 'This record is in use and cannot be changed that way',
  413: 'The upload is too large',
  422: 'Some fields are not valid',
  429: 'Too many attempts. Please wait a moment and try again.',
  500: 'Internal Server Error',
  503: 'The service is restarting. Please try again in a moment.',
} as const;

/** What is wrong with a request itself, whatever the screen (any field, any form). */
export const INPUT_MESSAGES = {
  textInvalid: 'This text contains characters that cannot be saved',
  valueInvalid: 'This value is not valid',
  fieldNotAccepted: 'This field is not accepted',
  textExpected: 'Enter text here, not a number or a yes or no',
  formUnreadable: 'The form could not be read. Please send it again.',
  uploadsBusy: 'Other files are being read. Please try again in a moment.',
} as const;

export const LOGIN_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  invalidCode: 'Invalid code',
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Invalid email',
  /** Coming Soon's notify-by-email: the same answer whether the address was new or known. */
  notifyNoted: 'Thank you. We will write to you when it opens.',
  loggedOut: 'You are Logged Out',
  /** `/auth/type` for a domain whose OpenID provider does not answer (issue 29 point 6). */
  externalUnreachable: 'Your organisation’s sign-in service cannot be reached. Please try again later.',
} as const;

/** A platform administrator's external sign-in domains (issue 29 point 6). */
export const SIGNIN_DOMAIN_MESSAGES = {
  issuerRequired: 'Please enter the issuer',
  issuerInvalid: 'Enter the issuer as https://…',
  issuerUnreachable: 'No OpenID provider answers at this issuer',
  clientIdRequired: 'Please enter the client ID',
  secretRequired: 'Please enter the client secret',
  removed: 'This domain signs in with passwords again',
} as const;

export const TENANT_MESSAGES = {
  nameTooShort: 'The name is too short',
  nameTooLong: 'The name is too long',
  nameRequired: 'Please enter the business name',
  categoryRequired: 'Please select a category',
  tenantcodeRequired: 'Please enter the tenant code',
  tenantcodeTaken: 'This tenant code is already taken',
  tenantcodeTooLong: 'The tenant code is too long',
  tenantcodeInvalid: 'Use letters, digits, - and _ only',
  /** The demo is confined (issue 24 point 5): its accounts' password is published. */
  demoCannotCreate:
    'The demo accounts cannot create schools or businesses: sign up, or start Mustard with SEED_DEMO=false, to create your own',
  demoCannotJoin: 'The demo accounts cannot become members of other schools or businesses: their password is published',
  demoCannotInvite: 'The demo accounts cannot invite people into other schools or businesses: their password is published',
} as const;

export const USER_MESSAGES = {
  nameRequired: 'Please enter your name',
  nameTooShort: 'Too short',
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Invalid email',
  passwordRequired: 'Please enter your password',
  passwordTooShort: 'Too short',
  passwordTooLong: 'The password is too long',
  passwordComposition: 'Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character',
  roleUnknown: 'This role does not exist in this school or business',
  alreadyMember: 'This person is already a member here',
  removeSelf: 'You cannot remove yourself',
  currentPasswordWrong: 'The current password is not correct',
  invitationDeclined: 'The invitation has been declined',
  invitationCodeRequired: 'Please enter the invitation code',
  invitationCodeInvalid: 'This invitation code is not valid or has expired',
  invitationVoid: 'This invitation is no longer valid; ask the school to invite you again',
  invitationOwn: 'You sent this invitation: give its code to the person you invited, who joins with it',
  invitationWithdrawn: 'The invitation has been withdrawn',
} as const;

/** The sign-up rules' messages (spec §5). */
export const REGISTER_MESSAGES = {
  nameRequired: 'Please enter your name',
  tooShort: 'Too short',
  emailInvalid: 'Invalid email',
  emailRequired: 'Please enter your email address',
  telephoneRequired: 'Please enter your telephone',
  telephoneInvalid: 'Invalid telephone number',
  passwordRequired: 'Please enter your password',
  passwordComposition: 'Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character',
  businessNameRequired: 'Please enter your business name',
  businessEmailRequired: 'Please enter your business email address',
  businessTelephoneRequired: 'Please enter your business telephone',
  /** The one answer of a registration, whether or not the address has an account (issue 29: no enumeration). */
  checkEmail: 'Check your e-mail: we sent a link to confirm your address',
  linkInvalid: 'This link cannot be used: it was used already, it has expired, or it is not one we sent',
} as const;

/** A forgotten password (issue 29 point 3): the request's one answer, a link's fault, the change done. */
export const PASSWORD_RESET_MESSAGES = {
  requested: 'If an account uses this address, we have sent it a link to choose a new password.',
  linkInvalid: 'This link is not valid: it has expired, was already used or a newer one was sent. Ask for a new link.',
  changed: 'Your password has been changed. Sign in with it.',
} as const;

/** School settings' rules (spec §5 and the forms of §2 "School list screens"). */
export const SETTINGS_MESSAGES = {
  categoryNameRequired: 'Please enter the category name',
  nameTooShort: 'The name is too short',
  nameTooLong: 'The name is too long',
  nameRequired: 'Please enter the name',
  labelRequired: 'Please enter the label',
  categoryRequired: 'Please select a category',
  classRequired: 'Please select a class',
  classUnknown: 'Choose one of the school’s classes',
  termRequired: 'Please select a term',
  yearInvalid: 'Enter a year between 2000 and 2100',
  subjectRequired: 'Please select a subject',
  markTypeRequired: 'Please select a mark type',
  remarkTypeRequired: 'Please select a remark type',
  percentageInvalid: 'Enter a percentage from 0 to 100',
  numberInvalid: 'Enter a whole number',
  numberRequired: 'Please enter a number',
  commentRequired: 'Please enter the comment',
  scoreRequired: 'Please enter the grade or score',
  rangeReversed: 'The lower bound must not be above the upper bound',
  duplicate: 'This record already exists',
  referenceMissing: 'The chosen record does not exist',
  parentInvalid: 'A remark type cannot be its own parent or sit under its own sub category',
  gradeSetExists: 'This class, subject, term and year already have a grade set',
  termDateInvalid: 'Enter the day as YYYY-MM-DD',
  termDatesOrder: 'Each term ends after it starts, and before the next term starts',
  termDatesYear: 'A term’s days fall within its year',
  teacherRequired: 'Please select a teacher',
  teacherNotMember: 'This person is no longer a member of the school',
  titleRequired: 'Please enter the title',
  detailsRequired: 'Please enter the details',
  papersInvalid: 'Enter a number of papers from 1 to 6',
  maxScoreInvalid: 'Enter a maximum score from 1 to 1000',
  assignmentExists: 'This teacher already has this assignment',
  classTeacherTaken: 'This class already has a class teacher for the term',
  deputyExists: 'This deputy is already recorded for this class',
  gradeFooterExists: 'This class already has a grade footer',
  reportFooterExists: 'This footer already exists for the class, term and year',
  subjectPaperExists: 'This subject already has its papers for the class, term and year',
  copySameTerm: 'Choose another term to copy from',
} as const;

/** Learners' rules (spec §3 "Student", §5) and uploads (issue 5). */
export const STUDENT_MESSAGES = {
  firstnameRequired: 'Please enter the first name',
  lastnameRequired: 'Please enter the last name',
  classRequired: 'Please select a class',
  classUnknown: 'Choose one of the school’s classes',
  genderInvalid: 'Gender is F or M',
  statusInvalid: 'Status is active, inactive or completed',
  dateInvalid: 'Enter a date as YYYY-MM-DD',
  dobTooEarly: 'A date of birth is from 1900 on',
  dobInFuture: 'A date of birth cannot be in the future',
  emailInvalid: 'Invalid email',
  termRequired: 'Please select a term',
  yearInvalid: 'Enter a year between 2000 and 2100',
  positionInvalid: 'Enter a column number from 1 to 200',
  positionsSame: 'The invoice and receipt columns must differ',
  studentidTaken: 'Another learner has this student id',
  codeTaken: 'Another learner has this passcode',
  paymentcodeTaken: 'Another learner has this payment code',
  studentidRequired: 'Enter a student id, or tick "give new learners ids"',
  studentidRepeated: 'This student id is on another row of the file',
  categoryUnknown: 'No student category has this name',
  unknownStudent: 'No learner has this student id or payment code',
  amountInvalid: 'The amount is not a number',
  fileRequired: 'Please choose a file',
  fileNotSpreadsheet: 'The file is not an Excel workbook (.xlsx)',
  fileUnsafe: 'The file is too large or damaged to read safely',
  tooManyRows: 'The sheet has too many rows (at most 5,000)',
  emptySheet: 'The sheet has no learners',
  rowsInvalid: 'Some rows are not valid; nothing was saved',
  photoNotImage: 'The photo must be a JPEG, PNG or WebP image',
  photoTooLarge: 'The photo is too large (at most 5 MB and 40 megapixels)',
  uploaded: 'The learners have been uploaded',
  journalUploaded: 'The fee journal has been uploaded',
  notADate: 'Not a date (write it as dd/mm/yyyy)',
  nameIncomplete: 'The name needs a surname and a first name',
  mappingInvalid: 'The columns’ fields could not be read',
  mappingRepeated: 'Two columns cannot fill the same field',
  promoted: 'The learners have been promoted',
  promotedRecently: 'The learners were promoted a moment ago; check the class lists before promoting again',
  promoteConfirm: 'This operation can not be reversed. Do you really want to proceed with it?',
} as const;

/** The texts of finished actions (spec §8 "Long actions"). */
export const RESULT_MESSAGES = {
  created: 'Successfully created',
  updated: 'Successfully updated',
  deleted: 'Successfully deleted',
  excelReady: 'The excel file is ready.',
} as const;

/** What is wrong with a grade set's bands (details in the web's own words). */
export const GRADE_SET_MESSAGES = {
  missing: 'Enter both bounds of every grade',
  reversed: 'A lower bound is above its upper bound',
  overlap: 'Two grades share some marks',
  gap: 'Some marks from 0 to 100 have no grade',
  empty: 'Add at least one grade',
} as const;

/** Why a record cannot be deleted (409): what still depends on it. */
export const IN_USE_MESSAGES = {
  studentcategories: 'This category has learners and cannot be deleted',
  subjects: 'This subject has grades, proportions or marks and cannot be deleted',
  locations: 'This location holds stock and cannot be deleted',
  marktypes: 'This mark type has proportions, published marks or marks and cannot be deleted',
  grades: 'This grade is in use and cannot be deleted',
  proportions: 'This proportion is in use and cannot be deleted',
  publishmarks: 'These published marks are in use and cannot be deleted',
  alevelscores: 'This score is in use and cannot be deleted',
  remarktypes: 'This remark type has sub categories, comments or automatic comments and cannot be deleted',
  automarkcomments: 'This comment is in use and cannot be deleted',
  autoreportcomments: 'This comment is in use and cannot be deleted',
  tenants: 'This business has members and cannot be deleted',
  students: 'This learner has marks or fee records and cannot be deleted',
  staff: 'This record is in use and cannot be deleted',
  topics: 'Marks carry this competency: delete its marks first',
  projects: 'This project has scores and cannot be deleted',
  currencies: 'This currency is in use and cannot be deleted',
  taxes: 'Products or groups use this tax: choose another for them first',
  whduties: 'This withholding duty is in use and cannot be deleted',
  banks: 'This bank is in use and cannot be deleted',
  productgroups: 'This group has products: move them to another group first',
  products: 'This product has stock movements: mark it inactive instead',
  companies: 'This partner has stock movements: mark it inactive instead',
  accounts: 'This account has postings or documents: mark it inactive instead',
} as const;

/** Entering marks (issue 14): what is wrong with a cell, a grid or a save, said to the teacher. */
export const MARK_MESSAGES = {
  notAMark: 'Enter a number, ABS for an absence, or leave it empty',
  belowZero: 'A mark cannot be below 0',
  aboveMaximum: 'The mark is above the maximum of the mark type',
  oneDecimal: 'A mark has at most one decimal',
  competencyAboveThree: 'A competency score is at most 3',
  competencyBelowOne: 'A competency score is at least 1 (this school does not allow 0): type ABS for an absence',
  competencyOtherClass: 'This competency belongs to another class or term',
  competencyOldCurriculum: 'This class follows the old curriculum this year: its competencies take no scores',
  examNotActivity: 'An exam is not an activity of integration: choose the activities’ mark types',
  gridTooLarge: 'This grid is too large: choose fewer mark types or one stream',
  conflict: 'Someone else changed some of these marks since you opened them',
  published: 'These marks are published and can only be changed by those who manage marks',
  notAssigned: 'You are not assigned to teach this subject to this class in this term',
  learnerNotInClass: 'This learner is not in the chosen class and stream',
  learnerUnknown: 'There is no learner with this student id in the school',
  markTypeInactive: 'This mark type is inactive',
  markTypeUnknown: 'Choose at least one mark type of the school',
  paperTooHigh: 'The subject has fewer papers than this',
  futureTerm: 'Marks cannot be entered for a term after the current one',
  sheetWrongGrid: 'This sheet belongs to another class, subject, term or year',
  sheetNoMarks: 'The sheet has no student id column or no mark type column',
  sheetRepeatedMarkType: 'The sheet has one mark type in two columns: keep one of them',
  sheetNoValues: 'The sheet has no Student ID column or no column to save',
  totalDaysInvalid: 'Enter the total days of the term: a whole number from 1 to 366',
  daysInvalid: 'Days attended is a whole number from 0 to the total days',
  daysAboveTotal: 'Days attended cannot be more than the total days',
  targetInvalid: 'A target is a number from 0 to 100 with at most one decimal',
} as const;

/** Report cards and mark sheets (issue 15): refusals of a report request and of a school's layout. */
export const REPORT_MESSAGES = {
  noLearners: 'There are no learners in this class and stream',
  noMarks: 'There are no marks for these learners in this term',
  learnerUnknown: 'There is no such learner in this school',
  markTypeUnknown: 'Choose mark types of this school',
  customNeedsMarkTypes: 'A custom report needs at least one mark type',
  tooManyLearners: 'A report covers at most 1,500 learners: choose a class or a stream',
  unknownSection: 'Choose a section from the list',
  sectionsEmpty: 'Choose at least one section',
  subjectsRequired: 'A report card always shows its subjects',
  sectionRepeated: 'A section is listed twice',
  unknownColumn: 'Choose a column from the list',
  columnRepeated: 'A column is listed twice',
  lineTooLong: 'A header line has at most 120 characters',
  tooManyLines: 'A report has at most 4 header lines',
  yesOrNo: 'Choose yes or no',
  labelRequired: 'Enter the label',
  labelTooLong: 'The label has at most 60 characters',
  settingsChanged: 'Someone else saved these settings after you opened them. Reload to see their changes.',
  nameTooLong: 'A name has at most 20 characters',
  schoolDocumentsBusy: 'Your school already has several documents being prepared. Please try again in a moment.',
  documentsBusy: 'Many documents are being prepared. Please try again in a moment.',
  markValuesUnknown: 'Choose raw marks or weighted parts',
  logoNotImage: 'The badge must be a JPEG, PNG or WebP picture',
  logoTooLarge: 'The badge is too large (at most 5 MB and 40 megapixels)',
  newCurriculumClass: 'This class follows the new curriculum this year: its report cards and mark sheet are under New Curriculum',
  oldCurriculumClass: 'This class follows the old curriculum this year: its cards and mark sheet are the terminal report and mark sheet',
  oneSummative: 'Choose one mark type: the summative exam',
  analysisPrecision: 'Choose from 0 to 4 decimals',
  streamNeedsClass: 'Choose the class of this stream, or no stream for all classes',
  noClassMarks: 'No class has marks in this term: choose another term, or enter marks first',
  otherCurriculumLeftOut: 'Follows the new curriculum this year: its analysis is of competencies',
  classWithoutMarks: 'No marks of these mark types in this class',
  cumulativeNeedsMarkTypes: 'Tick the mark types the cumulative report puts side by side',
  learnerRequired: 'Please select a learner',
  learnerNotInClass: 'This learner is not in the chosen class and stream',
  statisticsCategory: 'Choose a statistic from the list',
  statisticsWeight: 'Choose a weight set from the list',
  statisticsAlevelOnly: 'This statistic is of A-level results: choose an A-level class (S5 or S6)',
  statisticsNoDivisions: 'An A-level class has points, not aggregates or divisions: choose an A-level statistic',
} as const;

/** Project scores (issue 26 point 5): a score or comment refused per cell, a conflict, a sheet. */
export const PROJECT_SCORE_MESSAGES = {
  notAScore: 'Enter a number from 0 to the project’s maximum, or leave it empty',
  absentNotScore: 'A project has no ABS: leave the score empty for a learner without one',
  belowZero: 'A project score cannot be below 0',
  aboveMaximum: 'The score is above the project’s maximum',
  oneDecimal: 'A project score has at most one decimal',
  commentTooLong: 'A comment has at most 1,000 characters',
  commentNotText: 'A comment is text',
  conflict: 'Someone else changed some of these scores since you opened them',
  projectUnknown: 'There is no such project in this school',
  maximumBelowScores: 'Some learners have scores above this maximum: lower those scores first',
} as const;

/** Which class a competency or project may belong to, and a primary school's classes (issue 26). */
export const CURRICULUM_MESSAGES = {
  topicHasScores: 'This competency has scores: its class, term and subject stay as they are (delete its marks first)',
  oldCurriculumClass:
    'This class follows the old curriculum: competencies and projects are for new-curriculum classes (Settings → New curriculum classes)',
  primaryNoNew: 'A primary school has no new-curriculum classes',
} as const;

/**
 * Every catalogue by name. The web translates a message the server or a shared rule gives
 * by finding its key here (`messages.<catalogue>.<key>` in the locale files), so English stays
 * the one source of the exact texts.
 */
export const MESSAGE_CATALOGUES = {
  errors: ERROR_MESSAGES,
  input: INPUT_MESSAGES,
  login: LOGIN_MESSAGES,
  signinDomains: SIGNIN_DOMAIN_MESSAGES,
  tenant: TENANT_MESSAGES,
  user: USER_MESSAGES,
  register: REGISTER_MESSAGES,
  passwordReset: PASSWORD_RESET_MESSAGES,
  settings: SETTINGS_MESSAGES,
  gradeSet: GRADE_SET_MESSAGES,
  results: RESULT_MESSAGES,
  students: STUDENT_MESSAGES,
  inUse: IN_USE_MESSAGES,
  marks: MARK_MESSAGES,
  reports: REPORT_MESSAGES,
  gradingRules: GRADING_RULE_MESSAGES,
  comments: COMMENT_MESSAGES,
  remarks: REMARK_MESSAGES,
  projectScores: PROJECT_SCORE_MESSAGES,
  curriculum: CURRICULUM_MESSAGES,
  business: BUSINESS_MESSAGES,
  stock: STOCK_MESSAGES,
  sales: SALES_MESSAGES,
  payments: PAYMENT_MESSAGES,
  accounts: ACCOUNT_MESSAGES,
  efris: EFRIS_MESSAGES,
  businessReports: BUSINESS_REPORT_MESSAGES,
} as const;

type Values<T> = T[keyof T];

/**
 * A text of the catalogue: the only message an error may carry to a response (issue 11 point 6).
 * A string written at a throw does not type-check as one; name the catalogue's constant instead.
 */
export type CatalogueMessage = {
  [Name in keyof typeof MESSAGE_CATALOGUES]: Values<(typeof MESSAGE_CATALOGUES)[Name]>;
}[keyof typeof MESSAGE_CATALOGUES];
