import { Button, Card, Checkbox, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import {
  classOptions,
  listStudentsEndpoint,
  markTypes,
  REPORT_TYPES,
  type ReportType,
  remarkTypes,
  reportLayoutEndpoint,
  statisticsCategoriesFor,
  studentCategories,
  subjects,
  TERMS,
  type Term,
  WEIGHT_SET_NAMES,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StreamSelect, type TaughtStream } from '../../components/StreamSelect.js';
import { ApiError, call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { useTermStart } from '../../lib/calendar.js';
import { type FilterFold, FilterFoldButton } from '../../lib/loaded-sheet.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError } from '../../lib/notify.js';
import { type Choice, useChoices } from '../../resources/choices.js';
import { type FieldSpec, fieldName, namedErrors, type OptionSpec } from './declaration.js';
import { changeValues, type FilterValues, type GridFieldName, queryName, startValues, TYPE_KEYS } from './fields.js';

/*
 * The filter card every report page and class sheet shares (issue 25 point 6): the page's title,
 * the fields it declares in one grid, its report options in a row under them, Next; on a phone
 * it folds away once what Next opened is on screen. Each field is drawn here once.
 */

/** A page's filter: every field's value, a change of some (clearing what depends on them), and "the person chose a term". */
export interface ReportFilterState {
  values: FilterValues;
  change: (fields: Partial<FilterValues>) => void;
  /** The term or year is the person's choice: the school's current term no longer applies. */
  chosen: () => void;
}

/** The filter's values, starting at the page's own (`initial`) and the school's current term once its calendar is known. */
export function useReportFilter(initial?: Partial<FilterValues>): ReportFilterState {
  const { current, chosen } = useTermStart((start) => setValues((now) => ({ ...now, ...start })));
  const [values, setValues] = useState<FilterValues>(() => startValues(current, initial));
  return { values, change: (fields) => setValues((now) => changeValues(now, fields)), chosen };
}

/** The fields a 422 names, each with its first message translated, for showing beside the field. */
export function fieldErrorsOf(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || !error.data?.errors) return null;
  const named = namedErrors(error.data.errors);
  return Object.fromEntries(Object.entries(named).map(([name, text]) => [name, translateMessage(text)]));
}

/** A call the filter led to failed: the toast says what went wrong, a refused field is named beside it too. */
export function showFailure(error: unknown, setErrors: (errors: Record<string, string>) => void): void {
  const named = fieldErrorsOf(error);
  if (named) setErrors(named);
  notifyError(error);
}

/** What a page gives its fields beyond their values: choices of its own, the streams a teacher teaches. */
export interface FieldContext {
  /** Choices the page narrows (the classes and subjects a teacher may write in; every remark type to delete). */
  choices?: Partial<Record<GridFieldName, readonly Choice[] | readonly string[]>>;
  /** The classes and streams a member limited to assignments may choose from; null for every stream. */
  taught?: readonly TaughtStream[] | null;
  /** The report types offered (every one by default). */
  types?: readonly ReportType[];
}

interface FieldProps {
  filter: ReportFilterState;
  errors: Record<string, string>;
  spec: Exclude<FieldSpec, string>;
  context: FieldContext;
}

const CATEGORY_CHOICES = { resource: studentCategories, label: 'name' } as const;
const MARK_TYPE_CHOICES = { resource: markTypes, label: 'label' } as const;
const SUBJECT_CHOICES = { resource: subjects, label: 'name', activeOnly: true } as const;
const REMARK_TYPE_CHOICES = { resource: remarkTypes, label: 'label', activeOnly: true } as const;
/** A class's learners fit one answer (a class has tens of learners). */
const CLASS_LIST_SIZE = 1000;

/** The class: asked for, unless the page offers every class at once (`none`: "All classes"). */
function ClassField({ filter, errors, spec, context }: FieldProps) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const required = spec.required ?? spec.none === undefined;
  return (
    <Select
      label={t(spec.label ?? 'fields.form')}
      data={[...(context.choices?.form ?? classOptions(session?.tenant ?? {}))]}
      value={filter.values.form}
      onChange={(value) => filter.change({ form: value })}
      error={errors.form}
      searchable
      withAsterisk={required}
      clearable={!required}
      placeholder={required ? undefined : t(spec.none ?? '')}
    />
  );
}

/** A field of one record's id (none: all of them, unless the page requires one), from the page's choices or the field's own. */
function ChoiceField({
  name,
  own,
  label,
  none,
  filter,
  errors,
  spec,
  context,
}: FieldProps & {
  name: 'studentcategory_id' | 'subject_id' | 'remarktype_id' | 'marktype_id';
  own: readonly Choice[];
  label: string;
  none?: string;
}) {
  const { t } = useTranslation();
  const required = spec.required ?? none === undefined;
  return (
    <Select
      label={t(spec.label ?? label)}
      data={[...(context.choices?.[name] ?? own)]}
      value={filter.values[name]}
      onChange={(value) => filter.change({ [name]: value })}
      error={errors[name]}
      placeholder={required ? undefined : t(spec.none ?? none ?? '')}
      withAsterisk={required}
      clearable={!required}
      searchable
      nothingFoundMessage={t('list.nothingFound')}
    />
  );
}

function StudentCategoryField(props: FieldProps) {
  const own = useChoices(CATEGORY_CHOICES);
  return (
    <ChoiceField {...props} name="studentcategory_id" own={own} label="reportFilter.studentCategory" none="reportFilter.allCategories" />
  );
}

/** The subject: always asked for. */
function SubjectField(props: FieldProps) {
  const own = useChoices(SUBJECT_CHOICES);
  return <ChoiceField {...props} name="subject_id" own={own} label="fields.subject" />;
}

/** The remark type: the active ones; none is every remark type of the report type, unless the page requires one. */
function RemarkTypeField(props: FieldProps) {
  const own = useChoices(REMARK_TYPE_CHOICES);
  return <ChoiceField {...props} name="remarktype_id" own={own} label="reportComments.remarkType" none="reportComments.allRemarkTypes" />;
}

/** The term: a change says the person chose it, so the school's calendar arriving later does not undo it. */
function TermField({ filter, errors, spec }: FieldProps) {
  return <TermSelect term={filter.values.term} label={spec.label} error={errors.term} change={filter.change} chosen={filter.chosen} />;
}

function YearField({ filter, errors, spec }: FieldProps) {
  return <YearInput year={filter.values.year} label={spec.label} error={errors.year} change={filter.change} chosen={filter.chosen} />;
}

function TermSelect(props: {
  term: string;
  label?: string | undefined;
  error?: string | undefined;
  change: (fields: { term: Term }) => void;
  chosen: () => void;
  /** The term is fixed by the page (a competency's own term): shown, not changed. */
  locked?: boolean | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t(props.label ?? 'fields.term')}
      data={[...TERMS]}
      value={props.term}
      onChange={(value) => {
        if (!value) return;
        props.chosen();
        props.change({ term: value as Term });
      }}
      error={props.error}
      allowDeselect={false}
      disabled={props.locked}
      classNames={props.locked ? { input: 'mustard-locked' } : undefined}
    />
  );
}

function YearInput(props: {
  year: number;
  label?: string | undefined;
  error?: string | undefined;
  change: (fields: { year: number }) => void;
  chosen: () => void;
}) {
  const { t } = useTranslation();
  return (
    <NumberInput
      label={t(props.label ?? 'fields.year')}
      value={props.year}
      onChange={(value) => {
        props.chosen();
        props.change({ year: Number(value) });
      }}
      error={props.error}
      allowDecimal={false}
    />
  );
}

/**
 * The term and year of a filter that is not a report's (the marks grid, class values): they
 * start at the school's current term, and a change by the person says so (`chosen`).
 */
export function TermYearFields({
  filter,
  change,
  chosen,
  errors,
  lockTerm,
}: {
  filter: { term: string; year: number };
  change: (fields: { term?: Term; year?: number }) => void;
  chosen: () => void;
  errors: Record<string, string>;
  /** The term comes with the page (a competency's grid) and cannot be changed there. */
  lockTerm?: boolean;
}) {
  return (
    <>
      <TermSelect term={filter.term} error={errors.term} change={change} chosen={chosen} locked={lockTerm} />
      <YearInput year={filter.year} error={errors.year} change={change} chosen={chosen} />
    </>
  );
}

function ReportTypeField({ filter, errors, spec, context }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Select
      label={t(spec.label ?? 'terminalReport.reportType')}
      data={(context.types ?? REPORT_TYPES).map((type) => ({ value: type, label: t(`reportFilter.types.${TYPE_KEYS[type]}`) }))}
      value={filter.values.category}
      onChange={(value) => value && filter.change({ category: value as ReportType })}
      error={errors.category}
      allowDeselect={false}
    />
  );
}

function MarkTypesField({ filter, errors, spec }: FieldProps) {
  const { t } = useTranslation();
  const choices = useChoices(MARK_TYPE_CHOICES);
  const chosen = filter.values.marktype_ids;
  return (
    <MultiSelect
      label={t(spec.label ?? 'reportFilter.markTypes')}
      data={choices}
      value={chosen}
      onChange={(value) => filter.change({ marktype_ids: value })}
      error={errors.marktype_id ?? errors.marktype_ids}
      placeholder={chosen.length === 0 ? t(spec.none ?? 'reportFilter.allMarkTypes') : undefined}
      withAsterisk={spec.required}
      clearable
    />
  );
}

/** One mark type, always asked for (the new-curriculum card's summative exam). */
function MarkTypeField(props: FieldProps) {
  const own = useChoices(MARK_TYPE_CHOICES);
  return <ChoiceField {...props} name="marktype_id" own={own} label="reportFilter.markType" />;
}

/** One learner of the chosen class and stream; none is the whole class. */
function LearnerField({ filter, errors, spec }: FieldProps) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const { form, stream } = filter.values;
  const learners = useQuery({
    queryKey: ['report-learners', session?.tenant?.id, form, stream.trim()],
    enabled: form !== null,
    queryFn: () =>
      call(listStudentsEndpoint, { query: { form: form ?? undefined, stream: stream.trim() || undefined, per_page: CLASS_LIST_SIZE } }),
    staleTime: 30_000,
  });
  return (
    <Select
      label={t(spec.label ?? 'fields.student')}
      data={(learners.data?.students ?? []).map((learner) => ({ value: learner.id, label: `${learner.fullname} (${learner.studentid})` }))}
      value={filter.values.student_id}
      onChange={(value) => filter.change({ student_id: value })}
      error={errors.student_id}
      placeholder={form ? t(spec.none ?? 'terminalReport.wholeClass') : t('terminalReport.chooseClassFirst')}
      withAsterisk={spec.required}
      disabled={!form}
      searchable
      clearable
      nothingFoundMessage={t('list.nothingFound')}
    />
  );
}

function LabelField({ filter, errors, spec }: FieldProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t(spec.label ?? 'fields.label')}
      value={filter.values.label}
      onChange={(event) => filter.change({ label: event.currentTarget.value })}
      error={errors.label}
    />
  );
}

const PRECISIONS = ['0', '1', '2', '3', '4'];

function PrecisionField({ filter, errors, spec }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Select
      label={t(spec.label ?? 'reportFilter.precision')}
      data={PRECISIONS}
      value={String(filter.values.precision)}
      onChange={(value) => filter.change({ precision: Number(value ?? 2) })}
      allowDeselect={false}
      error={errors.precision}
    />
  );
}

/** The statistics category (Mark Statistics): spec §9's codes of the school's type, in its language; sent as `category`. */
function StatisticField({ filter, errors, spec }: FieldProps) {
  const { t } = useTranslation();
  const { session } = useAuth();
  return (
    <Select
      label={t(spec.label ?? 'statistics.category')}
      data={statisticsCategoriesFor(session?.tenant?.schooltype).map((code) => ({
        value: code,
        label: t(`statistics.categories.${code}`),
      }))}
      value={filter.values.statistic}
      onChange={(value) => value && filter.change({ statistic: value as FilterValues['statistic'] })}
      error={errors[queryName('statistic')]}
      allowDeselect={false}
      withAsterisk
      searchable
    />
  );
}

/** The weight set of the statistics' indices. */
function WeightField({ filter, errors, spec }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Select
      label={t(spec.label ?? 'statistics.weight')}
      data={WEIGHT_SET_NAMES.map((name) => ({ value: name, label: t(`statistics.weights.${name}`) }))}
      value={filter.values.weight}
      onChange={(value) => value && filter.change({ weight: value as FilterValues['weight'] })}
      error={errors.weight}
      allowDeselect={false}
    />
  );
}

/** Each field of the grid, drawn once. */
const FIELD_VIEWS: Record<GridFieldName, (props: FieldProps) => ReactNode> = {
  form: ClassField,
  stream: ({ filter, errors, context }) => (
    <StreamSelect
      form={filter.values.form}
      value={filter.values.stream}
      onChange={(stream) => filter.change({ stream })}
      error={errors.stream}
      taught={context.taught ?? null}
    />
  ),
  studentcategory_id: StudentCategoryField,
  term: TermField,
  year: YearField,
  category: ReportTypeField,
  marktype_ids: MarkTypesField,
  marktype_id: MarkTypeField,
  student_id: LearnerField,
  subject_id: SubjectField,
  remarktype_id: RemarkTypeField,
  label: LabelField,
  precision: PrecisionField,
  statistic: StatisticField,
  weight: WeightField,
};

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

export interface ReportFilterCardProps extends FieldContext {
  /** The page's title, a locale key. */
  title: string;
  /** The form's accessible name, a locale key. */
  filterName: string;
  fields: readonly FieldSpec[];
  options?: readonly OptionSpec[] | undefined;
  filter: ReportFilterState;
  errors: Record<string, string>;
  busy: boolean;
  onNext: (event: FormEvent) => void;
  /** On a phone, the filter folded away once what Next opened is on screen. */
  fold?: FilterFold;
  /** Above the form: what the page is missing to be of use (no subjects yet). */
  notice?: ReactNode;
  /** More boxes in the options' row (the outputs: Excel, PDF, Preview). */
  boxes?: ReactNode;
  /** Next does what cannot be undone (deleting): a red button. */
  danger?: boolean;
}

/** The filter card: title, the declared fields, the options and Next. */
export function ReportFilterCard(props: ReportFilterCardProps) {
  const { t } = useTranslation();
  const { filter, errors, fold } = props;
  const context: FieldContext = { choices: props.choices, taught: props.taught, types: props.types };
  const options = props.options ?? [];
  return (
    <Card withBorder padding="md">
      <Stack>
        <Title order={1} size="h3">
          {t(props.title)}
        </Title>
        {props.notice}
        {fold && <FilterFoldButton fold={fold} />}
        <form onSubmit={props.onNext} aria-label={t(props.filterName)} noValidate hidden={fold?.folded}>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 3, md: 4 }}>
              {props.fields.map((field) => {
                const spec = typeof field === 'string' ? { name: field } : field;
                const View = FIELD_VIEWS[fieldName(field)];
                return <View key={spec.name} filter={filter} errors={errors} spec={spec} context={context} />;
              })}
            </SimpleGrid>
            {(options.length > 0 || props.boxes) && (
              <Group>
                {options.map((option) =>
                  option.name === 'rawmark' ? (
                    <RawMarksCheckbox
                      key={option.name}
                      label={t(option.label)}
                      checked={filter.values.rawmark}
                      onChange={(checked) => filter.change({ rawmark: checked })}
                    />
                  ) : (
                    <Checkbox
                      key={option.name}
                      label={t(option.label)}
                      checked={filter.values[option.name]}
                      onChange={(event) => filter.change({ [option.name]: event.currentTarget.checked })}
                    />
                  ),
                )}
                {props.boxes}
              </Group>
            )}
            <Group justify="flex-end">
              <Button type="submit" color={props.danger ? 'red' : undefined} loading={props.busy}>
                {t('marks.next')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
