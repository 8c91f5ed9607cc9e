import { Stack } from '@mantine/core';
import {
  COMMENT_CATEGORIES,
  classOptions,
  genericCommentsEndpoint,
  markCommentsEndpoint,
  myAssignmentsEndpoint,
  ncCommentsEndpoint,
  subjects,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyNotice, useSubjectsKnown } from '../../components/EmptyNotice.js';
import { call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { LoadedSheet, useSheetHeading } from '../../lib/loaded-sheet.js';
import { PAGES } from '../../lib/pages.js';
import { useChoices } from '../../resources/choices.js';
import { type OptionSpec, reportFields } from '../report-page/declaration.js';
import { TYPE_KEYS } from '../report-page/fields.js';
import { ReportFilterCard } from '../report-page/ReportFilterCard.js';
import { useSheetFilter } from '../report-page/useSheetFilter.js';
import { type CommentsKind, CommentsSheet, KIND_KEYS } from './CommentsSheet.js';
import { CurriculumNotice } from './CurriculumNotice.js';

const LOAD_ENDPOINTS = {
  markcomments: markCommentsEndpoint,
  genericcomments: genericCommentsEndpoint,
  nccomments: ncCommentsEndpoint,
} as const;
const SUBJECT_CHOICES = { resource: subjects, label: 'name', activeOnly: true } as const;
/** The report filter's fields without the student category, and the subject (spec §2). */
const GRID = reportFields('comments.reportType', ['subject_id'], ['studentcategory_id']);
const OPTIONS: readonly OptionSpec[] = [{ name: 'rawmark', label: 'comments.rawmark' }];
/** New-curriculum comments: class, stream, term, year and subject (no report type or mark types: competencies are shown). */
const NC_GRID = reportFields('comments.reportType', ['subject_id'], ['studentcategory_id', 'category', 'marktype_ids']);
/** Each screen's page, and the curriculum of the classes it writes for (generic skills: either). */
const SCREENS = {
  markcomments: { page: PAGES.subjectComments, curriculum: 'old', other: PAGES.ncReportComments },
  genericcomments: { page: PAGES.genericSkills, curriculum: null, other: null },
  nccomments: { page: PAGES.ncReportComments, curriculum: 'new', other: PAGES.subjectComments },
} as const;

/** Subject comments (`/comments/subject`, spec §2): a subject teacher's comment per learner. */
export function SubjectCommentsPage() {
  return <CommentsPage kind="markcomments" />;
}

/** Generic skills (`/school/mark_genericcomment`): the same screen, a skills text per learner (beside competency scores in a new-curriculum class). */
export function GenericSkillsPage() {
  return <CommentsPage kind="genericcomments" />;
}

/**
 * New-curriculum comments (`/school/mark_newcurriculumcomment`, issue 27 point 3): the same
 * screen for a new-curriculum class, each learner's competency scores and subject identifier
 * beside the remark on competency.
 */
export function NcCommentsPage() {
  return <CommentsPage kind="nccomments" />;
}

/**
 * The filter (class, stream, term, year, Report Type, mark types, subject, Display raw marks;
 * the report filter's fields without the student category), then the class's sheet. A member
 * limited to their assignments is offered only the classes and subjects they may write in
 * (issue 13's rule, the one the server applies).
 */
function CommentsPage({ kind }: { kind: CommentsKind }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const nc = kind === 'nccomments';
  const { values, loaded, stale, card } = useSheetFilter({
    endpoint: LOAD_ENDPOINTS[kind],
    fields: nc ? NC_GRID : GRID,
    options: nc ? [] : OPTIONS,
    sheetOf: (answer, query) => ({ answer, query }),
  });
  const heading = useSheetHeading();
  const subjectRows = useChoices(SUBJECT_CHOICES);
  const subjectsKnown = useSubjectsKnown();
  const mine = useQuery({
    queryKey: ['my-assignments', session?.tenant?.id, values.term, values.year],
    queryFn: () => call(myAssignmentsEndpoint, { query: { term: values.term, year: values.year } }),
  });

  // Only where the member may write: everywhere for those who manage marks or remarks, else their assignments.
  const assigned = mine.data?.reach.subjectComments === 'assigned' ? mine.data.subjects : null;
  const classes = useMemo(() => {
    const all = classOptions(session?.tenant ?? {});
    if (!assigned) return all;
    const held = new Set(assigned.map((row) => row.form.trim().toLowerCase()));
    return all.filter((form) => held.has(form.toLowerCase()));
  }, [session?.tenant, assigned]);
  // A teacher's streams: those he teaches the chosen subject in (any subject before one is chosen).
  const taught = useMemo(
    () => assigned?.filter((row) => !values.subject_id || row.subject_id === values.subject_id) ?? null,
    [assigned, values.subject_id],
  );
  const subjectChoices = subjectRows.filter(
    (subject) =>
      !assigned ||
      assigned.some(
        (row) => row.subject_id === subject.value && (!values.form || row.form.trim().toLowerCase() === values.form.toLowerCase()),
      ),
  );

  const { page, curriculum, other } = SCREENS[kind];
  return (
    <Stack>
      <ReportFilterCard
        title={page.title}
        filterName={`comments.${KIND_KEYS[kind]}.filter`}
        {...card}
        types={COMMENT_CATEGORIES}
        choices={{ form: classes, subject_id: subjectChoices }}
        taught={taught}
        notice={
          <>
            {subjectsKnown && subjectRows.length === 0 && (
              <EmptyNotice text={t('empty.noSubjects')} to={PAGES.subjects.path} link={t('empty.addSubjects')} testId="no-subjects" />
            )}
            {curriculum && <CurriculumNotice form={values.form} year={values.year} screen={curriculum} other={other} />}
          </>
        }
      />
      {loaded && session?.tenant && (
        <LoadedSheet
          stale={stale}
          heading={heading({
            form: loaded.sheet.query.form,
            stream: loaded.sheet.query.stream,
            subject: subjectRows.find((subject) => subject.value === loaded.sheet.query.subject_id)?.label,
            term: loaded.sheet.query.term,
            year: loaded.sheet.query.year,
            more: nc ? [] : [t(`reportFilter.types.${TYPE_KEYS[loaded.sheet.query.category]}`)],
            marktypes: loaded.sheet.answer.marktypes.map((type) => type.label),
          })}
        >
          <CommentsSheet
            key={`${JSON.stringify(loaded.sheet.query)}:${loaded.at}`}
            answer={loaded.sheet.answer}
            query={loaded.sheet.query}
            kind={kind}
            owner={{ tenantId: session.tenant.id, userId: session.user.id }}
          />
        </LoadedSheet>
      )}
    </Stack>
  );
}
