import { Checkbox, MultiSelect, NumberInput, Select, SimpleGrid } from '@mantine/core';
import {
  classOptions,
  markTypes,
  REPORT_TYPES,
  type ReportType,
  reportLayoutEndpoint,
  studentCategories,
  TERMS,
  type Term,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StreamSelect, type TaughtStream } from '../../components/StreamSelect.js';
import { ApiError, call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { useCurrentTerm, useTermStart } from '../../lib/calendar.js';
import { translateMessage } from '../../lib/messages.js';
import { useChoices } from '../../resources/choices.js';

/*
 * The filter every report of a class shares (spec §2: Terminal Reports, Marksheet): class,
 * stream, student category, term, year, report type and mark types. One hook holds it (the term
 * and year start at the school's current term), one component draws its fields, a page adds its
 * own (the learner, the label, what to download) as children.
 */

export interface ReportFilter {
  form: string | null;
  stream: string;
  studentcategory_id: string | null;
  term: Term;
  year: number;
  category: ReportType;
  marktype_ids: string[];
}

/** The locale key of each report type (the spec's values have a space and a dash): `reportFilter.types.<key>`. */
export const TYPE_KEYS: Record<ReportType, string> = {
  assesment: 'assesment',
  exam: 'exam',
  'mid term': 'midTerm',
  custom: 'custom',
  'pre-primary': 'prePrimary',
};

const CATEGORY_CHOICES = { resource: studentCategories, label: 'name' } as const;
const MARK_TYPE_CHOICES = { resource: markTypes, label: 'label' } as const;

/** The filter as a report endpoint's query: empty choices left out, mark types as one list. */
export function reportQueryOf(filter: ReportFilter) {
  return {
    form: filter.form ?? '',
    stream: filter.stream.trim() || undefined,
    studentcategory_id: filter.studentcategory_id ?? undefined,
    term: filter.term,
    year: filter.year,
    category: filter.category,
    marktype_ids: filter.marktype_ids.length > 0 ? filter.marktype_ids.join(',') : undefined,
  };
}

/** A page's filter: the shared fields with the page's own (`extra`), and the setter of one field. */
export function useReportFilter<Extra extends object>(extra: Extra) {
  const current = useCurrentTerm();
  const [filter, setFilter] = useState<ReportFilter & Extra>({
    form: null,
    stream: '',
    studentcategory_id: null,
    term: current.term,
    year: current.year,
    category: 'exam',
    marktype_ids: [],
    ...extra,
  });
  const set = <K extends keyof (ReportFilter & Extra)>(name: K, value: (ReportFilter & Extra)[K]) =>
    setFilter((now) => ({ ...now, [name]: value }));
  // The term and year start at the school's own current term once its calendar is known.
  const { chosen } = useTermStart((start) => setFilter((now) => ({ ...now, ...start })));
  return { filter, setFilter, set, chosen };
}

/** The fields a 422 names, each with its first message translated, for showing beside the field. */
export function fieldErrorsOf(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || !error.data?.errors) return null;
  return Object.fromEntries(
    Object.entries(error.data.errors).map(([name, texts]) => [name.split('.')[0] ?? name, translateMessage(texts[0] ?? '')]),
  );
}

interface ReportFilterFieldsProps {
  filter: ReportFilter;
  /** Changes fields of the filter (a new class or stream also clears what depends on it). */
  change: (fields: Partial<ReportFilter>) => void;
  /** Marks the term or year as chosen by the person (the school's current term no longer applies). */
  chosen: () => void;
  errors: Record<string, string>;
  /** The report type's label: "Report Type" on Terminal Reports, "Category" on the mark sheet (spec). */
  typeLabel: string;
  /** The report types the page offers (all by default; comments belong to fewer). */
  types?: readonly ReportType[];
  /** The classes the page offers (the school's by default; a page of entries offers those the member may enter). */
  classes?: readonly string[];
  /** Whether the student category is asked (the comments screens have none: spec §2). */
  studentCategory?: boolean;
  /** The classes and streams a member limited to assignments may choose from; null for every stream. */
  taught?: readonly TaughtStream[] | null;
  /** The page's own fields, in the same grid. */
  children?: ReactNode;
}

export function ReportFilterFields({
  filter,
  change,
  chosen,
  errors,
  typeLabel,
  types = REPORT_TYPES,
  classes,
  studentCategory = true,
  taught = null,
  children,
}: ReportFilterFieldsProps) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const categoryChoices = useChoices(studentCategory ? CATEGORY_CHOICES : undefined);
  const typeChoices = useChoices(MARK_TYPE_CHOICES);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3, md: 4 }}>
      <Select
        label={t('fields.form')}
        data={[...(classes ?? classOptions(session?.tenant ?? {}))]}
        value={filter.form}
        onChange={(value) => change({ form: value })}
        error={errors.form}
        searchable
        withAsterisk
      />
      <StreamSelect
        form={filter.form}
        value={filter.stream}
        onChange={(stream) => change({ stream })}
        error={errors.stream}
        taught={taught}
      />
      {studentCategory && (
        <Select
          label={t('reportFilter.studentCategory')}
          data={categoryChoices}
          value={filter.studentcategory_id}
          onChange={(value) => change({ studentcategory_id: value })}
          error={errors.studentcategory_id}
          placeholder={t('reportFilter.allCategories')}
          clearable
        />
      )}
      <TermYearFields filter={filter} change={change} chosen={chosen} errors={errors} />
      <Select
        label={typeLabel}
        data={types.map((type) => ({ value: type, label: t(`reportFilter.types.${TYPE_KEYS[type]}`) }))}
        value={filter.category}
        onChange={(value) => value && change({ category: value as ReportType })}
        error={errors.category}
        allowDeselect={false}
      />
      <MultiSelect
        label={t('reportFilter.markTypes')}
        data={typeChoices}
        value={filter.marktype_ids}
        onChange={(value) => change({ marktype_ids: value })}
        error={errors.marktype_id ?? errors.marktype_ids}
        placeholder={filter.marktype_ids.length === 0 ? t('reportFilter.allMarkTypes') : undefined}
        clearable
      />
      {children}
    </SimpleGrid>
  );
}

/**
 * The term and year of a filter: they start at the school's current term, and a change by the
 * person says so (`chosen`), so the school's calendar arriving later does not undo it.
 */
export function TermYearFields({
  filter,
  change,
  chosen,
  errors,
}: {
  filter: { term: string; year: number };
  change: (fields: { term?: Term; year?: number }) => void;
  chosen: () => void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Select
        label={t('fields.term')}
        data={[...TERMS]}
        value={filter.term}
        onChange={(value) => {
          if (!value) return;
          chosen();
          change({ term: value as Term });
        }}
        error={errors.term}
        allowDeselect={false}
      />
      <NumberInput
        label={t('fields.year')}
        value={filter.year}
        onChange={(value) => {
          chosen();
          change({ year: Number(value) });
        }}
        error={errors.year}
        allowDecimal={false}
      />
    </>
  );
}

/**
 * Display raw marks (spec §2), on the Terminal Report and the comment screens. The school's report
 * layout prints raw marks unless it chose weighted parts, and then raw marks are shown whatever the
 * box says: the box shows that (ticked, fixed, saying why) rather than an unticked box that changes
 * nothing. Where the layout prints weighted parts the box asks for raw ones, as the spec has it.
 */
export function RawMarksCheckbox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const layout = useQuery({
    queryKey: ['report-layout-mark-values', session?.tenant?.id],
    queryFn: async () => (await call(reportLayoutEndpoint, {})).layout.markValues,
    staleTime: 60_000,
  });
  const byLayout = layout.data !== undefined && layout.data !== 'weighted';
  return (
    <Checkbox
      label={label}
      checked={byLayout || checked}
      disabled={byLayout}
      description={byLayout ? t('reportFilter.rawByLayout') : undefined}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}
