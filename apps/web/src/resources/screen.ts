import type { ResourceDefinition } from '@mustard/shared';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { RouteDefinition } from '../lib/pages.js';
import type { ResourceCalls } from '../lib/resource-calls.js';

/** Where a select's choices come from. */
export type Choices =
  /** Fixed values, labelled `options.<value>` (or `<labels>.<value>`: a feature's own texts). */
  | { values: readonly string[]; labels?: string }
  /** The school's classes (spec §3 "Class options"). */
  | 'classes'
  | 'terms'
  /** Papers I to VI. */
  | 'papers'
  /** The school's members, the teacher of an assignment (GET /api/requisitions/defaults). */
  | 'teachers'
  /** The school's roles by name, those the member may not hand out disabled (GET /api/users/roles). */
  | 'roles'
  /** Records of another resource: its id, shown by `label`; with `activeOnly`, none marked inactive (`active: false`). */
  | { resource: ResourceDefinition; label: string; activeOnly?: boolean };

/** One input of a form or of a list's filter bar; labelled `fields.<name>`, a field of the resource's input or filters. */
export interface FieldSpec<Name extends string = string> {
  name: Name;
  /** A label other than `fields.<name>` (a locale key). */
  label?: string;
  /** Help under the label, with an example (a locale key): what the value means. */
  description?: string;
  /**
   * `photo` and `sheet` are files sent beside the fields (multipart): a learner's photo, a filled .xlsx.
   * `amount` is exact decimal text (money, a quantity): typed as text, never a float, thousands commas allowed ("12,500").
   */
  kind: 'text' | 'textarea' | 'number' | 'amount' | 'select' | 'multiselect' | 'switch' | 'year' | 'date' | 'photo' | 'sheet';
  choices?: Choices;
  /** The form's value from the stored record, where they differ (a member's roles are sent by name). */
  fromRecord?(record: Record<string, unknown>): unknown;
  /** Shown only while this returns true (for instance, paper classes only with multiple papers). */
  when?(values: Record<string, unknown>): boolean;
  /** What the form sends for the field while `when` hides it (a service keeps no stock: false), instead of its last value. */
  hiddenValue?: unknown;
  /** A new record's value from the form's other values until the person chooses one (a new school's defaults follow its type). */
  follow?(values: Record<string, unknown>): unknown;
}

/** A field of the row, or one of a joined record's (`subject.name`): what a column may print. */
export type FieldPath<Row> = {
  [Key in keyof Row & string]: NonNullable<Row[Key]> extends Record<string, unknown>
    ? Key | `${Key}.${keyof NonNullable<Row[Key]> & string}`
    : Key;
}[keyof Row & string];

/** One column of a list; labelled `fields.<field>`, the value read from the field (dotted paths too). */
export interface ColumnSpec<Row> {
  field: FieldPath<Row>;
  /** A heading other than `fields.<field>` (a locale key). */
  label?: string;
  /** Drawn from the row instead of printing the field's value. */
  render?(row: Row): ReactNode;
  /** Values printed through `options.<value>` (categories, statuses), or through `<translate>.<value>` when a key prefix. */
  translate?: boolean | string;
  /** Numbers printed as they are (a year is 2026, not 2,026). */
  plain?: boolean;
  /** Exact decimal text (money, a quantity) printed in US English with every decimal it has ("12,500", "0.125"), right-aligned. */
  amount?: boolean;
}

export interface RowAction<Row> {
  label: string;
  /** The ability on the screen's subject the action writes with; shown only to those who have it. */
  needs?: 'create' | 'update' | 'delete';
  /** A link, or an action with the row (which may open the form for a new record). */
  to?(row: Row): string;
  run?(row: Row, screen: { openNew(defaults: Record<string, unknown>): void }): void;
}

/**
 * A list screen on the one mechanism (issue 4): the shared resource says what the records are
 * and where they live; the screen says what the school sees. Everything not stated here is the
 * common case: search box, the resource's page size, Add in the menu, Edit and Delete per row
 * for those who may manage the resource, a modal form, an Excel download.
 */
export interface ScreenDefinition<
  Row extends { id: string } = { id: string } & Record<string, unknown>,
  Input extends string = string,
  Filter extends string = string,
> {
  resource: ResourceDefinition;
  /** The page the screen is (its path and title, from app/routes.ts). */
  page: RouteDefinition;
  columns: ReadonlyArray<ColumnSpec<Row>>;
  /** The form's inputs, in order: fields of the resource's input (the photo of a learner travels beside it). */
  fields: ReadonlyArray<FieldSpec<Input>>;
  /** Inputs of the filter bar, besides the search box: the resource's filters. */
  filters?: ReadonlyArray<FieldSpec<Filter>>;
  /** Values the first search uses (for instance the current year on /grades). */
  initialFilters?(): Record<string, unknown>;
  search?: boolean;
  /** A rows-a-page dropdown with these choices. */
  pageSizeOptions?: readonly number[];
  /** Checkboxes to select rows. */
  selectable?: boolean;
  /** Values of a new record's form. */
  defaults?: Record<string, unknown>;
  /** More entries of each row's menu, after Edit. */
  rowActions?(row: Row): ReadonlyArray<RowAction<Row>>;
  /** Entries of the header menu instead of the modal Add (for instance, a page of its own). */
  addActions?: ReadonlyArray<{ label: string; to: string }>;
  /** Opening a row goes to this page. */
  rowLink?(row: Row): string;
  /**
   * The calls of a resource whose routes are written by hand (learners, members, schools, marks),
   * from its module's contracts; without them, the resource's own (`resourceCalls`).
   */
  calls?: ResourceCalls<Row>;
  /** A separate title for the edit form (tenants have their own create and edit modals). */
  editTitle?: string;
  /** Parents with their children indented below them (remark types). */
  tree?: boolean;
  /** Row deletion in the menu (off where the API has none, such as tenants). */
  deletable?: boolean;
  /** Row editing in the menu (off where records are written elsewhere, such as marks in their grid). */
  editable?: boolean;
  /** What the delete confirmation says, where the common "This cannot be undone." is not enough. */
  deleteText?: string;
  /** Ask this many rows at once and page through them in the browser (the class list asks 1,000). */
  fetchAll?: number;
  /** A "Download excel" box in the filter bar: Search then downloads the list instead. */
  excelCheckbox?: boolean;
  /** The label of the menu's Add entry (a locale key). */
  addLabel?: string;
  /**
   * More entries of the header menu, each opening its own dialog; `offerWhenEmpty` also shows it
   * as a button under an empty list, beside Add (Upload students, Copy from Term II).
   */
  headerActions?: ReadonlyArray<{ label: string; render(close: () => void): ReactNode; offerWhenEmpty?: boolean }>;
  /** The columns a phone's card shows, by field (the first three unless named). */
  cardColumns?: ReadonlyArray<FieldPath<Row>>;
  /** The Add/Edit form in a side panel (a drawer) instead of a modal: staff assignments (spec §2). */
  panel?: 'drawer';
  /** The title of the form for a new record (a locale key), where "Add <title>" is not the spec's. */
  addTitle?: string;
  /** What the list says while its first page loads (a locale key), where "Please wait.." is not the spec's. */
  loadingText?: string;
  /**
   * What a create answers that the person must see before moving on, in a dialog with this title
   * (a locale key): an invitation's code is shown this once.
   */
  created?: { title: string; render(answer: unknown): ReactNode };
  /** More of the page below the list's card (a member list's pending invitations). */
  footer?(): ReactNode;
  /** Saving a record changes the person's own profile (a school created joins their switcher). */
  refreshesProfile?: boolean;
  /** The header and row menus only for those who may change records (spec §2 "Students"). */
  menusForWritersOnly?: boolean;
}

/**
 * A screen typed to its resource: a column names a field of the record the list answers, an
 * input a field of the body a save sends, a filter one the list call takes, each checked by the
 * compiler (a renamed field breaks the build, not the screen).
 */
export function defineScreen<Record extends z.ZodObject, Input extends z.ZodObject, Filters extends z.ZodObject>(
  screen: ResourceScreen<Record, Input, Filters>,
): ResourceScreen<Record, Input, Filters> {
  return screen;
}

/** The screen of one resource: its rows the records, its inputs the input's fields (and a learner's photo), its filters the list's. */
type ResourceScreen<Record extends z.ZodObject, Input extends z.ZodObject, Filters extends z.ZodObject> = ScreenDefinition<
  z.infer<Record> & { id: string },
  (keyof z.infer<Input> & string) | 'photo' | 'file',
  keyof z.infer<Filters> & string
> & { resource: ResourceDefinition<Record, Input, Filters> };
