import { Button, Card, Group, Select, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  COMMENT_CATEGORIES,
  classOptions,
  genericCommentsEndpoint,
  type MarkComments,
  type MarkCommentsQuery,
  MarkCommentsQuerySchema,
  markCommentsEndpoint,
  myAssignmentsEndpoint,
  subjects,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyNotice, useSubjectsKnown } from '../../components/EmptyNotice.js';
import { ApiError, call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { fieldErrorsOfIssues } from '../../lib/forms.js';
import { FilterFoldButton, LoadedSheet, useLoadedSheet, useSheetHeading } from '../../lib/loaded-sheet.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { useChoices } from '../../resources/choices.js';
import {
  fieldErrorsOf,
  RawMarksCheckbox,
  ReportFilterFields,
  reportQueryOf,
  TYPE_KEYS,
  useReportFilter,
} from '../reports/report-filter.js';
import { type CommentsKind, CommentsSheet, KIND_KEYS } from './CommentsSheet.js';

const LOAD_ENDPOINTS = { markcomments: markCommentsEndpoint, genericcomments: genericCommentsEndpoint } as const;
const SUBJECT_CHOICES = { resource: subjects, label: 'name', activeOnly: true } as const;

/** Subject comments (`/comments/subject`, spec §2): a subject teacher's comment per learner. */
export function SubjectCommentsPage() {
  return <CommentsPage kind="markcomments" />;
}

/** Generic skills (`/school/mark_genericcomment`): the same screen, a skills text per learner. */
export function GenericSkillsPage() {
  return <CommentsPage kind="genericcomments" />;
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
  const { filter, setFilter, set, chosen } = useReportFilter({ subject_id: null as string | null, rawmark: false });
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The sheet belongs to the choices it was loaded for: a comment typed after switching subjects must not land in the old one.
  const { loaded, stale, show, clear, fold } = useLoadedSheet<{ answer: MarkComments; query: MarkCommentsQuery }, typeof filter>(filter);
  const heading = useSheetHeading();
  const [busy, setBusy] = useState(false);
  const subjectRows = useChoices(SUBJECT_CHOICES);
  const subjectsKnown = useSubjectsKnown();
  const mine = useQuery({
    queryKey: ['my-assignments', session?.tenant?.id, filter.term, filter.year],
    queryFn: () => call(myAssignmentsEndpoint, { query: { term: filter.term, year: filter.year } }),
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
    () => assigned?.filter((row) => !filter.subject_id || row.subject_id === filter.subject_id) ?? null,
    [assigned, filter.subject_id],
  );
  const subjectChoices = subjectRows.filter(
    (subject) =>
      !assigned ||
      assigned.some(
        (row) => row.subject_id === subject.value && (!filter.form || row.form.trim().toLowerCase() === filter.form.toLowerCase()),
      ),
  );

  const next = async (event: FormEvent) => {
    event.preventDefault();
    const query = {
      ...reportQueryOf(filter),
      studentcategory_id: undefined,
      subject_id: filter.subject_id ?? '',
      rawmark: filter.rawmark ? '1' : '0',
    } as const;
    const parsed = MarkCommentsQuerySchema.safeParse(query);
    // The sheet on screen is of the choices before: whatever this Next does, it goes.
    clear();
    if (!parsed.success) {
      setErrors(fieldErrorsOfIssues(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const { studentcategory_id: _category, ...sent } = query;
      const answer = await call(LOAD_ENDPOINTS[kind], { query: sent });
      show({ answer, query: parsed.data }, filter);
    } catch (error) {
      const named = fieldErrorsOf(error);
      if (named) setErrors(named);
      else if (error instanceof ApiError && error.status === 403)
        notifications.show({ color: 'red', message: translateMessage(error.data?.message ?? error.message) });
      else notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  const page = kind === 'markcomments' ? PAGES.subjectComments : PAGES.genericSkills;
  return (
    <Stack>
      <Card withBorder padding="md">
        <Stack>
          <Title order={1} size="h3">
            {t(page.title)}
          </Title>
          {subjectsKnown && subjectRows.length === 0 && (
            <EmptyNotice text={t('empty.noSubjects')} to={PAGES.subjects.path} link={t('empty.addSubjects')} testId="no-subjects" />
          )}
          <FilterFoldButton fold={fold} />
          <form onSubmit={next} aria-label={t(`comments.${KIND_KEYS[kind]}.filter`)} noValidate hidden={fold.folded}>
            <Stack>
              <ReportFilterFields
                filter={filter}
                change={(fields) => setFilter((now) => ({ ...now, ...fields }))}
                chosen={chosen}
                errors={errors}
                typeLabel={t('comments.reportType')}
                types={COMMENT_CATEGORIES}
                classes={classes}
                studentCategory={false}
                taught={taught}
              >
                <Select
                  label={t('fields.subject')}
                  data={subjectChoices}
                  value={filter.subject_id}
                  onChange={(value) => set('subject_id', value)}
                  error={errors.subject_id}
                  searchable
                  withAsterisk
                  nothingFoundMessage={t('list.nothingFound')}
                />
              </ReportFilterFields>
              <Group justify="space-between">
                <RawMarksCheckbox label={t('comments.rawmark')} checked={filter.rawmark} onChange={(checked) => set('rawmark', checked)} />
                <Button type="submit" loading={busy}>
                  {t('comments.next')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Stack>
      </Card>
      {loaded && session?.tenant && (
        <LoadedSheet
          stale={stale}
          heading={heading({
            form: loaded.sheet.query.form,
            stream: loaded.sheet.query.stream,
            subject: subjectRows.find((subject) => subject.value === loaded.sheet.query.subject_id)?.label,
            term: loaded.sheet.query.term,
            year: loaded.sheet.query.year,
            more: [t(`reportFilter.types.${TYPE_KEYS[loaded.sheet.query.category]}`)],
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
