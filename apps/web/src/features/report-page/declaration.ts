import { type Endpoint, REPORT_MESSAGES, type ReportEmailSummarySchema, type ReportType } from '@mustard/shared';
import type { z } from 'zod';
import type { QueryOf } from './contract.js';
import type { FieldName, FilterValues, GridFieldName, OptionName } from './fields.js';

/*
 * A report page as a declaration (issue 25 point 6): its title, the fields it asks, the report
 * options under them, the endpoint contract it calls and the outputs it offers. The shell
 * (`ReportPage.tsx`) draws the filter card, runs the outputs behind one "Please wait.." toast,
 * follows a PDF as it is drawn and shows the preview in a sandboxed 800 px frame; a page adds
 * nothing of its own. Pure: unit-tested without a browser.
 */

/** The outputs, in the order Next runs them: the preview first (it is on screen soonest), then the files. */
export const OUTPUTS = ['preview', 'excel', 'pdf'] as const;
export type Output = (typeof OUTPUTS)[number];

/** The order of the outputs' boxes on the page (the spec's: Excel, PDF, Preview). */
export const OUTPUT_BOXES: readonly Output[] = ['excel', 'pdf', 'preview'];

export interface OutputDeclaration<E extends Endpoint> {
  /** The locale key of the box that asks for it; without one the output is what Next gives when no box is ticked. */
  box?: string;
  /**
   * What the output adds to the query, checked against the endpoint's contract: `{ html: '1' }`,
   * `{ excel: '1' }`, `{ pdf: '1' }`, or nothing where the endpoint answers that output by default.
   */
  query: Partial<QueryOf<E>>;
}

export interface PreviewDeclaration<E extends Endpoint> extends OutputDeclaration<E> {
  /** The frame's title (its accessible name), a locale key. */
  title: string;
  /** A line above the frame (what a click in it does), a locale key. */
  hint?: string;
  /** The width the document is drawn at: narrower screens show it whole, scaled down. Absent: the frame's full width. */
  width?: number;
  /** The label of a button above the frame that downloads the PDF of what the preview shows. */
  downloadPdf?: string;
}

export interface PdfDeclaration<E extends Endpoint> extends OutputDeclaration<E> {
  /** The server reports each page drawn under a token the page makes up (`progress`): the page shows how far it is. */
  followed?: boolean;
  /** What a followed PDF's progress says ({{done}} of {{total}}), a locale key; the report cards' words without one. */
  progress?: string;
}

/**
 * The Email option of the report cards (issue 29 point 5): a box that sends each learner's own
 * card to their guardian through its contract (the filter's query as its body, with a progress
 * token), shown only to those its contract lets; the page follows the cards drawn, then shows
 * the summary.
 */
export interface EmailDeclaration {
  /** The box's label, a locale key. */
  box: string;
  /** The e-mail contract: the filter as its body, the summary as its answer. */
  endpoint: Endpoint<undefined, undefined, z.ZodType, typeof ReportEmailSummarySchema>;
}

/** A field of the grid, with the words this page gives it where they differ from the field's own. */
export type FieldSpec =
  | GridFieldName
  | {
      name: GridFieldName;
      /** The label's locale key ("Category" for the report type on the mark sheet). */
      label?: string;
      /** Asked for: marked with an asterisk, no "all" in place of a choice. */
      required?: boolean;
      /** What no choice means, a locale key ("The whole class"). */
      none?: string;
    };

export interface OptionSpec {
  name: OptionName;
  /** The box's label, a locale key. */
  label: string;
}

export interface ReportPageDeclaration<E extends Endpoint = Endpoint> {
  /** The page's title (the page table's), a locale key. */
  title: string;
  /** The filter form's accessible name, a locale key. */
  filterName: string;
  /** The fields of the grid, in their order. */
  fields: readonly FieldSpec[];
  /** The report options: boxes under the grid. */
  options?: readonly OptionSpec[];
  /** The report types offered (every one by default). */
  types?: readonly ReportType[];
  /** Where this page's fields start, where not at every filter's start. */
  initial?: Partial<FilterValues>;
  /** The contract the page calls: its query schema checks the filter before anything is sent. */
  endpoint: E;
  outputs: { preview?: PreviewDeclaration<E>; excel?: OutputDeclaration<E>; pdf?: PdfDeclaration<E> };
  /** The cards by e-mail, beside the outputs. */
  email?: EmailDeclaration;
  /** What Next gives when no output's box is ticked. */
  otherwise: Output;
  /** The toast's words once everything asked is done, a locale key. */
  ready: string;
  /**
   * Where a class on the new curriculum has this report (issue 27 point 5): the server refuses
   * it on an old-curriculum page, and the page shows its words with a link there.
   */
  newCurriculum?: { to: string; link: string };
}

/** Declares a report page: the outputs' queries are checked against the endpoint's contract here. */
export function defineReportPage<E extends Endpoint>(declaration: ReportPageDeclaration<E>): ReportPageDeclaration<E> {
  return declaration;
}

/**
 * The report filter (spec §2, Terminal Reports): class, stream, student category, term, year,
 * report type (under the page's label) and mark types, then the page's own fields (`more`);
 * `leaveOut` what the page does not ask (the comments screens have no student category).
 */
export function reportFields(typeLabel: string, more: readonly FieldSpec[] = [], leaveOut: readonly GridFieldName[] = []): FieldSpec[] {
  const fields: FieldSpec[] = [
    'form',
    'stream',
    'studentcategory_id',
    'term',
    'year',
    { name: 'category', label: typeLabel },
    'marktype_ids',
    ...more,
  ];
  return fields.filter((field) => !leaveOut.includes(fieldName(field)));
}

/** A field's name, whichever way it is declared. */
export const fieldName = (field: FieldSpec): GridFieldName => (typeof field === 'string' ? field : field.name);

/** Every field the query carries: the grid's and the options'. */
export function declaredFields(declaration: Pick<ReportPageDeclaration, 'fields' | 'options'>): FieldName[] {
  return [...declaration.fields.map(fieldName), ...(declaration.options ?? []).map((option) => option.name)];
}

/** The boxes a page shows for its outputs, in the spec's order. */
export function outputBoxes(outputs: ReportPageDeclaration['outputs']): Array<{ output: Output; label: string }> {
  return OUTPUT_BOXES.flatMap((output) => {
    const label = outputs[output]?.box;
    return label ? [{ output, label }] : [];
  });
}

/** The boxes ticked at first: the preview, where the page offers one. */
export function startTicks(outputs: ReportPageDeclaration['outputs']): Record<Output, boolean> {
  return { preview: Boolean(outputs.preview?.box), excel: false, pdf: false };
}

/**
 * What Next runs: each output ticked, in run order, or what the page gives when none is; with
 * Email ticked only the outputs ticked (the cards go by e-mail, not as a download too).
 */
export function wantedOutputs(
  declaration: Pick<ReportPageDeclaration, 'outputs' | 'otherwise'>,
  ticked: Record<Output, boolean>,
  emailing = false,
): Output[] {
  const chosen = OUTPUTS.filter((output) => declaration.outputs[output]?.box && ticked[output]);
  return chosen.length > 0 || emailing ? chosen : [declaration.otherwise];
}

/** The preview's HTML in an answer (`{ html }`), or null where the answer is something else. */
export function previewHtmlOf(answer: unknown): string | null {
  return typeof answer === 'object' && answer !== null && 'html' in answer && typeof answer.html === 'string' ? answer.html : null;
}

/** The fields a 422 names, by their first part (`marktype_ids.0` is the mark types' field), each with its first message. */
export function namedErrors(errors: Record<string, readonly string[]>): Record<string, string> {
  const named: Record<string, string> = {};
  for (const [name, texts] of Object.entries(errors)) {
    const field = name.split('.')[0] ?? name;
    if (!(field in named)) named[field] = texts[0] ?? '';
  }
  return named;
}

/** Whether a refusal says the class is on the new curriculum (its report is the new curriculum's page). */
export function refusedAsNewCurriculum(errors: Record<string, readonly string[]> | undefined): boolean {
  return errors?.form?.[0] === REPORT_MESSAGES.newCurriculumClass;
}
