import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { EfrisDevicesTable, EfrisMessagesTable, EfrisOutboxTable, EfrisProductsTable } from './efris-types.js';
import type {
  AccountsTable,
  DocumentNumbersTable,
  InvoiceLinesTable,
  InvoicesTable,
  JournalEntriesTable,
  JournalLinesTable,
  MemoLinesTable,
  MemosTable,
  ReceiptAllocationsTable,
  ReceiptsTable,
  VoucherLinesTable,
  VouchersTable,
} from './sales-types.js';

/** Database rows as Kysely sees them. API shapes live in packages/shared; repositories map. */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface TenantsTable {
  id: string;
  tenantcode: string;
  name: string;
  logo_path: string | null;
  category: string;
  schooltype: 'primary' | 'secondary';
  forms: string | null;
  email: string | null;
  address: string | null;
  web: string | null;
  phone: string | null;
  tin: string | null;
  efrist: Generated<boolean>;
  country: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  is_admin: Generated<boolean>;
  path: string | null;
  phone: string | null;
  disabled_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface OneTimeCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  purpose: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Timestamp;
}

export interface AuthEventsTable {
  id: string;
  at: Timestamp;
  kind: string;
  user_id: string | null;
  email: string | null;
  ip: string | null;
}

export interface MembershipsTable {
  tenant_id: string;
  id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface RolesTable {
  tenant_id: string;
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface RolePermissionsTable {
  tenant_id: string;
  id: string;
  role_id: string;
  subject_class: string;
  action: string;
}

export interface MembershipRolesTable {
  tenant_id: string;
  membership_id: string;
  role_id: string;
}

/** A school's invitation of an account, until the person accepts or declines it. */
export interface InvitationsTable {
  tenant_id: string;
  id: string;
  user_id: string;
  /** The e-mail and name as the school typed them (never the account's own). */
  email: string;
  name: string;
  invited_by: string | null;
  /** sha256 of the code the school hands the person (the code itself is never stored). */
  code_hash: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface InvitationRolesTable {
  tenant_id: string;
  invitation_id: string;
  role_id: string;
}

export interface AuditLogTable {
  tenant_id: string;
  id: string;
  at: Timestamp;
  user_id: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
}

export interface StudentsTable {
  tenant_id: string;
  id: string;
  studentid: string;
  firstname: string;
  lastname: string;
  othername: string | null;
  gender: 'F' | 'M' | null;
  dob: string | null;
  form: string;
  stream: string | null;
  status: Generated<'active' | 'inactive' | 'completed'>;
  studentcategory_id: string | null;
  paymentcode: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  house: string | null;
  lin: string | null;
  code: string | null;
  /** Where the report cards are e-mailed (migration 0024). */
  guardian_email: string | null;
  photo_path: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface TenantOwned {
  tenant_id: string;
  id: string;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface StudentCategoriesTable extends TenantOwned {
  name: string;
  remarks: string | null;
}

export interface SubjectsTable extends TenantOwned {
  name: string;
  category: string;
  abbreviation: string | null;
  olevelcategory: string | null;
  position: number | null;
  weeklylabel: string | null;
  multiple_paper_forms: string | null;
  multiple_papers: Generated<boolean>;
  active: Generated<boolean>;
}

export interface LocationsTable extends TenantOwned {
  name: string;
  code: string | null;
}

export interface MarkTypesTable extends TenantOwned {
  label: string;
  category: string;
  position: number | null;
  status: Generated<string>;
  outof: Generated<number>;
}

/** numeric columns arrive as strings from PostgreSQL; the resource layer turns them into numbers. */
export interface GradesTable extends TenantOwned {
  subject_id: string;
  form: string;
  term: string;
  year: number;
  grade: string;
  lower: number | string;
  upper: number | string;
}

export interface ProportionsTable extends TenantOwned {
  form: string;
  term: string;
  year: number;
  subject_id: string;
  marktype_id: string;
  percentage: number | string;
}

export interface PublishMarksTable extends TenantOwned {
  term: string;
  year: number;
  marktype_id: string;
}

export interface ALevelScoresTable extends TenantOwned {
  total: number;
  score: number;
  papercount: number;
}

export interface RemarkTypesTable extends TenantOwned {
  label: string;
  category: string;
  parent_id: string | null;
  displaytype: Generated<string>;
  inputtype: Generated<string>;
  position: number | null;
  forms: string | null;
  active: Generated<boolean>;
}

export interface AutoMarkCommentsTable extends TenantOwned {
  score: string;
  comment: string;
  category: Generated<string>;
}

export interface AutoReportCommentsTable extends TenantOwned {
  form: string;
  remarktype_id: string;
  score: number | string;
  upper: number | string;
  comment: string;
}

/** A sign-up waiting for its address to be verified (migration 0022, issue 29 point 2). Global: no tenant yet. */
export interface RegistrationsTable {
  id: string;
  email: string;
  name: string;
  telephone: string;
  password_hash: string;
  /** The organisation as the form sent it (shared `BusinessSchema`'s output). */
  organisation: unknown;
  /** Starter product codes. */
  products: unknown;
  locale: string;
  token_hash: string;
  expires_at: Date;
  verified_at: Date | null;
  /** The organisation's logo, re-encoded (migration 0026); null without one. */
  logo: Uint8Array | null;
  created_at: Generated<Date>;
}

/**
 * What a business sells (migration 0022: the sign-up's starter products; 0027: the catalogue's
 * fields). Money and quantities are numeric: PostgreSQL answers them as exact decimal text.
 */
export interface ProductsTable extends TenantOwned {
  code: string;
  name: string;
  kind: 'goods' | 'service';
  unit: string;
  active: Generated<boolean>;
  barcode: string | null;
  group_id: string | null;
  price: Generated<Numeric>;
  cost: Generated<Numeric>;
  tax_id: string | null;
  track_stock: Generated<boolean>;
  fractional: Generated<boolean>;
  reorder_level: Generated<Numeric>;
  description: string | null;
}

/** A numeric column: exact decimal text read back, a decimal string or number written. */
export type Numeric = ColumnType<string, string | number, string | number>;

/** One row per business (migration 0027): whether stock may go below zero. */
export interface BusinessSettingsTable {
  tenant_id: string;
  allow_negative_stock: Generated<boolean>;
  /** Migration 0028: a business not registered for VAT issues invoices without VAT. */
  vat_registered: Generated<boolean>;
  updated_at: Generated<Timestamp>;
}

export interface CurrenciesTable extends TenantOwned {
  code: string;
  name: string;
  symbol: string | null;
  decimals: Generated<number>;
  rate: Generated<Numeric>;
  is_default: Generated<boolean>;
}

export interface TaxesTable extends TenantOwned {
  code: string;
  name: string;
  kind: 'standard' | 'zero' | 'exempt' | 'deemed';
  rate: Generated<Numeric>;
  inclusive: Generated<boolean>;
  active: Generated<boolean>;
}

export interface WhdutiesTable extends TenantOwned {
  code: string;
  name: string;
  kind: 'income_tax' | 'vat' | 'non_resident' | 'other';
  rate: Numeric;
  threshold: Generated<Numeric>;
  account: string | null;
  active: Generated<boolean>;
}

export interface BanksTable extends TenantOwned {
  name: string;
  code: string | null;
  swift: string | null;
  kind: 'bank' | 'mobile_money';
  active: Generated<boolean>;
}

export interface ProductGroupsTable extends TenantOwned {
  name: string;
  tax_id: string | null;
  description: string | null;
}

export interface CompaniesTable extends TenantOwned {
  name: string;
  role: 'customer' | 'supplier' | 'both';
  tin: string | null;
  buyer_type: Generated<'b2c' | 'b2b' | 'government' | 'foreigner'>;
  contact_person: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  terms_days: Generated<number>;
  credit_limit: Generated<Numeric>;
  active: Generated<boolean>;
  notes: string | null;
}

/** One user action on stock (migration 0027): its rows are `stock_records`. */
export interface StockMovementsTable {
  tenant_id: string;
  id: string;
  /** The client's id for the action: the same action sent twice is recorded once. */
  request_id: string;
  kind: 'opening' | 'purchase' | 'adjustment' | 'transfer' | 'sale' | 'sale_return';
  location_id: string;
  to_location_id: string | null;
  partner_id: string | null;
  reason: 'expired' | 'damaged' | 'personal_use' | 'lost' | 'count' | 'found' | 'other' | null;
  reference: string | null;
  note: string | null;
  occurred_on: ColumnType<string, string, never>;
  created_by: string | null;
  created_at: Generated<Timestamp>;
}

/** The stock ledger: append-only, signed quantities (the app may not update or delete). */
export interface StockRecordsTable {
  tenant_id: string;
  id: string;
  movement_id: string;
  /** The row's place in its movement (a transfer's out is 0, its in 1). */
  line: number;
  product_id: string;
  location_id: string;
  kind: 'opening' | 'purchase' | 'sale' | 'sale_return' | 'adjustment_in' | 'adjustment_out' | 'transfer_out' | 'transfer_in';
  quantity: Numeric;
  unit_cost: Numeric;
  occurred_on: ColumnType<string, string, never>;
  created_at: Generated<Timestamp>;
}

/** On hand per product and location: the ledger's sum, kept with each movement. */
export interface StockLevelsTable {
  tenant_id: string;
  product_id: string;
  location_id: string;
  on_hand: Generated<Numeric>;
  updated_at: Generated<Timestamp>;
}

/** Quantity and value per product (moving average cost = value / quantity). */
export interface StockValuationsTable {
  tenant_id: string;
  product_id: string;
  quantity: Generated<Numeric>;
  value: Generated<Numeric>;
  updated_at: Generated<Timestamp>;
}

export interface LaunchNotificationsTable {
  email: string;
  created_at: Generated<Date>;
}

/** The mail outbox (migration 0021, mail/outbox.ts): every message, written with its action, sent after commit. */
export interface MailOutboxTable {
  id: string;
  tenant_id: string | null;
  dedupe_key: string | null;
  recipient: string;
  /** A MailTemplate (mail/templates.ts). */
  template: string;
  locale: string;
  subject: string;
  body_text: string;
  body_html: string;
  status: Generated<'pending' | 'sending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  message_id: string | null;
  created_at: Generated<Date>;
  sent_at: Date | null;
}

export interface MailOutboxAttachmentsTable {
  mail_id: string;
  position: number;
  filename: string;
  content_type: string;
  content: Uint8Array;
}

/** External sign-in (migration 0025, auth/external-signin.repository.ts): a domain's OpenID provider. */
export interface ExternalSigninProvidersTable {
  domain: string;
  issuer: string;
  client_id: string;
  /** AES-256-GCM under the secrets key (auth/secret-box.ts), never the secret itself. */
  client_secret_sealed: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A sign-in under way at a provider: found by its state's hash, used once, ten minutes at most. */
export interface ExternalSigninAttemptsTable {
  state_hash: string;
  domain: string;
  nonce: string;
  code_verifier: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface TermDatesTable {
  tenant_id: string;
  year: number;
  term: 'I' | 'II' | 'III';
  starts: string;
  ends: string;
  updated_at: Generated<Date>;
}

export interface StudentClassHistoryTable {
  tenant_id: string;
  id: string;
  student_id: string;
  form: string;
  stream: string | null;
  year: number;
  outcome: 'promoted' | 'completed';
  recorded_at: Generated<Timestamp>;
}

export interface FeeJournalsTable {
  tenant_id: string;
  id: string;
  sha256: string;
  file_name: string | null;
  term: string;
  year: number;
  invoice_position: number;
  receipt_position: number;
  uploaded_by: string | null;
  uploaded_at: Generated<Timestamp>;
}

export interface StatementLinesTable {
  tenant_id: string;
  id: string;
  student_id: string;
  journal_id: string | null;
  date: string;
  particulars: string;
  category: 'invoice' | 'receipt';
  amount: number | string;
  term: string | null;
  year: number | null;
  created_at: Generated<Timestamp>;
}

export interface TopicsTable extends TenantOwned {
  subject_id: string;
  form: string;
  term: string;
  title: string;
  remarks: string | null;
}

/** A project of the new curriculum (migration 0018): its class, subject, term and year, and the most a learner may score. */
export interface ProjectsTable extends TenantOwned {
  subject_id: string;
  form: string;
  term: string;
  year: number;
  title: string;
  max_score: Generated<number>;
}

/** A learner's score (0 to the project's maximum) and comment on a project (migration 0019); `version` counts its writes. */
export interface ProjectScoresTable extends TenantOwned {
  project_id: string;
  student_id: string;
  score: string | number | null;
  comment: string | null;
  version: Generated<number>;
  user_id: string | null;
}

/** A class the school set to a curriculum for a year, against its default (migration 0020). */
export interface ClassCurriculaTable {
  tenant_id: string;
  form: string;
  year: number;
  curriculum: 'new' | 'old';
  updated_at: Generated<Timestamp>;
}

/** The school's new-curriculum rules (migration 0020): whether a competency may score 0. */
export interface CurriculumSettingsTable {
  tenant_id: string;
  allow_zero: Generated<boolean>;
  updated_at: Generated<Timestamp>;
}

/** A mark: a number, or an absence (`absent`, no number); `version` counts its writes (migration 0011). */
export interface MarksTable extends TenantOwned {
  student_id: string;
  subject_id: string;
  marktype_id: string;
  form: string;
  stream: string | null;
  term: string;
  year: number;
  /** I for a subject written in one paper. */
  paper: Generated<string>;
  mark: number | string | null;
  absent: Generated<boolean>;
  version: Generated<number>;
  topic_id: string | null;
  user_id: string | null;
}

/** Every change of a mark, kept when the mark is deleted; values as text (67.5, ABS, or none). */
export interface MarkHistoryTable {
  tenant_id: string;
  id: string;
  student_id: string;
  subject_id: string;
  marktype_id: string;
  form: string;
  stream: string | null;
  term: string;
  year: number;
  paper: string;
  topic_id: string | null;
  old_value: string | null;
  new_value: string | null;
  source: 'grid' | 'sheet' | 'delete';
  user_id: string | null;
  changed_at: Generated<Timestamp>;
}

/** A save's answer by its save_id: a retried save answers the same and writes nothing again. */
export interface MarkSavesTable {
  tenant_id: string;
  save_id: string;
  user_id: string | null;
  answer: unknown;
  saved_at: Generated<Timestamp>;
}

export interface AttendancesTable {
  tenant_id: string;
  id: string;
  student_id: string;
  form: string;
  stream: string | null;
  term: string;
  year: number;
  days: number;
  total_days: number;
  user_id: string | null;
  updated_at: Generated<Timestamp>;
}

export interface MarkTargetsTable {
  tenant_id: string;
  id: string;
  student_id: string;
  subject_id: string;
  form: string;
  stream: string | null;
  term: string;
  year: number;
  target: number | string;
  user_id: string | null;
  updated_at: Generated<Timestamp>;
}

/** Staff assignments (migration 0010); a null stream is the whole class. */
export interface SubjectTeachersTable extends TenantOwned {
  user_id: string;
  subject_id: string;
  form: string;
  stream: string | null;
  term: string;
  year: number;
}

export interface ClassTeachersTable extends TenantOwned {
  user_id: string;
  form: string;
  stream: string | null;
  term: string;
  year: number;
  category: Generated<'primary' | 'co-teacher'>;
}

export interface DeputiesTable extends TenantOwned {
  user_id: string;
  form: string;
  stream: string | null;
}

export interface GradeFootersTable extends TenantOwned {
  form: string;
  stream: string | null;
  details: string;
}

export interface ReportFootersTable extends TenantOwned {
  title: string;
  form: string;
  term: string;
  year: number;
  category: 'assesment' | 'exam';
  position: number | null;
  remarks: string | null;
}

export interface SubjectPapersTable extends TenantOwned {
  form: string;
  term: string;
  year: number;
  subject_id: string;
  papers: number;
}

/** A school's grading rules and report layout (JSON checked by their shared schemas); null is the default. */
export interface ReportSettingsTable {
  tenant_id: string;
  grading_rules: unknown | null;
  report_layout: unknown | null;
  version: Generated<number>;
  updated_at: Generated<Timestamp>;
}

/** A subject teacher's comment on a learner's subject ('general'), or the subject's generic skills text ('skill'). */
export interface MarkCommentsTable {
  tenant_id: string;
  id: string;
  student_id: string;
  subject_id: string;
  form: string;
  stream: string | null;
  term: string;
  year: number;
  category: 'assesment' | 'exam';
  kind: Generated<'general' | 'skill'>;
  comment: string;
  version: Generated<number>;
  user_id: string | null;
  updated_at: Generated<Timestamp>;
}

/** A learner's remark of one remark type (class teacher's, head teacher's, ...) for a class, term and year. */
export interface RemarksTable {
  tenant_id: string;
  id: string;
  student_id: string;
  remarktype_id: string;
  form: string;
  stream: string | null;
  term: string;
  year: number;
  comment: string;
  version: Generated<number>;
  user_id: string | null;
  updated_at: Generated<Timestamp>;
}

/** Every change and deletion of a comment or remark: the text before and after. */
export interface CommentHistoryTable {
  tenant_id: string;
  id: string;
  source: 'mark_comment' | 'remark';
  comment_id: string;
  student_id: string;
  old_value: string | null;
  new_value: string | null;
  action: 'save' | 'delete';
  user_id: string | null;
  changed_at: Generated<Timestamp>;
}

/** A school's remembered meaning of a column heading of its register (issue 24 point 2). */
export interface UploadMappingsTable {
  tenant_id: string;
  kind: 'students';
  header: string;
  field: string;
  updated_at: Generated<Timestamp>;
}

/** How far a document being drawn is, for the user who asked (issue 25 point 5; documents/progress.ts). */
export interface DocumentProgressTable {
  tenant_id: string;
  user_id: string;
  token: string;
  done: number;
  total: number;
  updated_at: Generated<Timestamp>;
}

export interface DB {
  tenants: TenantsTable;
  users: UsersTable;
  sessions: SessionsTable;
  one_time_codes: OneTimeCodesTable;
  auth_events: AuthEventsTable;
  memberships: MembershipsTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  membership_roles: MembershipRolesTable;
  invitations: InvitationsTable;
  invitation_roles: InvitationRolesTable;
  audit_log: AuditLogTable;
  students: StudentsTable;
  student_categories: StudentCategoriesTable;
  subjects: SubjectsTable;
  locations: LocationsTable;
  mark_types: MarkTypesTable;
  grades: GradesTable;
  proportions: ProportionsTable;
  publish_marks: PublishMarksTable;
  alevel_scores: ALevelScoresTable;
  remark_types: RemarkTypesTable;
  auto_mark_comments: AutoMarkCommentsTable;
  auto_report_comments: AutoReportCommentsTable;
  term_dates: TermDatesTable;
  launch_notifications: LaunchNotificationsTable;
  registrations: RegistrationsTable;
  products: ProductsTable;
  business_settings: BusinessSettingsTable;
  currencies: CurrenciesTable;
  taxes: TaxesTable;
  whduties: WhdutiesTable;
  banks: BanksTable;
  product_groups: ProductGroupsTable;
  companies: CompaniesTable;
  stock_movements: StockMovementsTable;
  stock_records: StockRecordsTable;
  stock_levels: StockLevelsTable;
  stock_valuations: StockValuationsTable;
  accounts: AccountsTable;
  document_numbers: DocumentNumbersTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  receipts: ReceiptsTable;
  receipt_allocations: ReceiptAllocationsTable;
  memos: MemosTable;
  memo_lines: MemoLinesTable;
  vouchers: VouchersTable;
  voucher_lines: VoucherLinesTable;
  journal_entries: JournalEntriesTable;
  journal_lines: JournalLinesTable;
  efris_devices: EfrisDevicesTable;
  efris_outbox: EfrisOutboxTable;
  efris_messages: EfrisMessagesTable;
  efris_products: EfrisProductsTable;
  student_class_history: StudentClassHistoryTable;
  fee_journals: FeeJournalsTable;
  statement_lines: StatementLinesTable;
  topics: TopicsTable;
  projects: ProjectsTable;
  project_scores: ProjectScoresTable;
  class_curricula: ClassCurriculaTable;
  curriculum_settings: CurriculumSettingsTable;
  marks: MarksTable;
  subject_teachers: SubjectTeachersTable;
  class_teachers: ClassTeachersTable;
  deputies: DeputiesTable;
  grade_footers: GradeFootersTable;
  report_footers: ReportFootersTable;
  subject_papers: SubjectPapersTable;
  mark_history: MarkHistoryTable;
  mark_saves: MarkSavesTable;
  attendances: AttendancesTable;
  mark_targets: MarkTargetsTable;
  report_settings: ReportSettingsTable;
  mark_comments: MarkCommentsTable;
  remarks: RemarksTable;
  comment_history: CommentHistoryTable;
  upload_mappings: UploadMappingsTable;
  document_progress: DocumentProgressTable;
  external_signin_providers: ExternalSigninProvidersTable;
  external_signin_attempts: ExternalSigninAttemptsTable;
  mail_outbox: MailOutboxTable;
  mail_outbox_attachments: MailOutboxAttachmentsTable;
}

/**
 * Tables shared by all tenants. Every other table is tenant-owned and must carry tenant_id
 * with forced row-level security; the catalog test fails on one that does not.
 */
export const GLOBAL_TABLES = [
  'tenants',
  'users',
  'sessions',
  'one_time_codes',
  'auth_events',
  'launch_notifications',
  'registrations',
  'mail_outbox',
  'mail_outbox_attachments',
  'external_signin_providers',
  'external_signin_attempts',
] as const;

export type TenantRow = Selectable<TenantsTable>;
export type UserRow = Selectable<UsersTable>;
export type NewStudent = Insertable<StudentsTable>;
