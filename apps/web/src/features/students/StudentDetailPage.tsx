import { Avatar, Button, Card, Flex, Grid, Group, Modal, NavLink, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  ABSENT,
  type StatementLine,
  type Student,
  type StudentResults,
  type SubjectResult,
  statementEndpoint,
  studentEndpoint,
  studentPhotoEndpoint,
  studentResultsEndpoint,
  updateStudentEndpoint,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageLoading } from '../../components/PageLoading.js';
import { RecordUnavailable } from '../../components/RecordUnavailable.js';
import { useAccess } from '../../lib/access.js';
import { ApiError, call } from '../../lib/api.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';

const NUMBER = new Intl.NumberFormat('en-US');
/** The narrowest a new-curriculum table gets (a phone scrolls it sideways in its own box, the page stays put). */
const NC_MIN_WIDTH = 480;
/** A long word breaks inside its own column rather than running over the next one. */
const NC_TABLE_STYLE = { overflowWrap: 'break-word' } as const;

/** Spec §9: dates of ten or more characters as short month, day, year ("Feb 3, 2026"). */
export function shortDate(date: string): string {
  if (date.length < 10) return date;
  const parsed = new Date(`${date.slice(0, 10)}T00:00:00`);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

/** A date of birth as Ugandan registers write it (14/03/2017), from the stored 2017-03-14. */
function dayMonthYear(date: string | null): string | null {
  const [year, month, day] = date?.slice(0, 10).split('-') ?? [];
  return year && month && day ? `${day}/${month}/${year}` : null;
}

/**
 * The guardian's e-mail (where the report cards are e-mailed), changed here by those who may
 * change a learner: the learner's record saved with that one field changed, checked as the form is.
 */
function GuardianEmail({ learner, onSaved }: { learner: Student; onSaved: () => void }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { access } = updateStudentEndpoint;
  const save = async () => {
    setSaving(true);
    setError(null);
    const { id, fullname: _name, studentcategory: _category, photo_path: _photo, ...fields } = learner;
    try {
      await call(updateStudentEndpoint, { params: { id }, body: { ...fields, guardian_email: draft?.trim() || null } });
      setDraft(null);
      onSaved();
    } catch (failure) {
      const named = failure instanceof ApiError ? failure.data?.errors?.guardian_email?.[0] : undefined;
      setError(named ? translateMessage(named) : errorText(failure));
    } finally {
      setSaving(false);
    }
  };
  if (draft === null)
    return (
      <Group gap="xs" align="flex-end" wrap="nowrap" style={{ minWidth: 0 }}>
        <Fact label={t('students.guardianEmail')} value={learner.guardian_email} />
        {typeof access === 'object' && can(access.action, access.subject) && (
          <Button variant="subtle" size="compact-sm" onClick={() => setDraft(learner.guardian_email ?? '')}>
            {t('list.edit')}
          </Button>
        )}
      </Group>
    );
  return (
    <Stack gap={4}>
      <TextInput
        label={t('students.guardianEmail')}
        description={t('students.guardianEmailHint')}
        type="email"
        value={draft}
        error={error}
        onChange={(event) => setDraft(event.currentTarget.value)}
      />
      <Group gap="xs">
        <Button size="compact-sm" loading={saving} onClick={() => void save()}>
          {t('list.save')}
        </Button>
        <Button size="compact-sm" variant="default" onClick={() => setDraft(null)}>
          {t('list.cancel')}
        </Button>
      </Group>
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div data-fact style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {/* An e-mail address or an address line wraps inside its cell instead of running over the next. */}
      <Text style={{ overflowWrap: 'anywhere' }}>{value || '—'}</Text>
    </div>
  );
}

/** The learner's photo, fetched with the session (photos are served only to their school). */
function Photo({ student }: { student: Student }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!student.photo_path) return;
    let objectUrl: string | null = null;
    call(studentPhotoEndpoint, { params: { id: student.id } })
      .then((data) => {
        objectUrl = URL.createObjectURL(data);
        setUrl(objectUrl);
      })
      .catch(() => setUrl(null));
    return () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [student.id, student.photo_path]);
  const initials = `${student.firstname[0] ?? ''}${student.lastname[0] ?? ''}`;
  return (
    <Avatar src={url} size={120} radius="md" alt={student.fullname} data-testid="student-photo" data-loaded={url ? 'yes' : 'no'}>
      {initials}
    </Avatar>
  );
}

type Record = StudentResults['results'][number];

/** One subject's marks across all the learner's records (spec §2: clicking a subject). */
function SubjectHistory({ results, subject, onClose }: { results: Record[]; subject: SubjectResult | null; onClose(): void }) {
  const { t } = useTranslation();
  const rows = subject
    ? results.flatMap((record) =>
        record.exams.flatMap((exam) =>
          exam.subjects
            .filter((candidate) => candidate.subject_id === subject.subject_id)
            .map((found) => ({ record, exam: exam.marktype, found })),
        ),
      )
    : [];
  return (
    <Modal opened={subject !== null} onClose={onClose} title={subject?.subject ?? ''} size={700} styles={{ content: { maxWidth: '95vw' } }}>
      {subject && (
        <Stack>
          <Text size="sm">
            {t('fields.category')}: {t(`options.${subject.category}`, { defaultValue: subject.category })}
          </Text>
          <Table striped withTableBorder data-testid="subject-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('students.record')}</Table.Th>
                <Table.Th>{t('fields.marktype')}</Table.Th>
                <Table.Th>{t('students.mark')}</Table.Th>
                <Table.Th>{t('fields.score')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(({ record, exam, found }) => (
                <Table.Tr key={`${record.form}-${record.term}-${record.year}-${exam}`}>
                  <Table.Td>{t('students.recordLabel', record)}</Table.Td>
                  <Table.Td>{exam}</Table.Td>
                  <Table.Td>{found.total ?? found.mark ?? (found.absent ? ABSENT : '')}</Table.Td>
                  <Table.Td>
                    {found.papers ? found.papers.map((paper) => `${paper.paper}: ${paper.score ?? ''}`).join(', ') : (found.score ?? '')}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * A record's exams: per mark type a table of subject, mark and grade; S5 and S6 per paper with
 * the subject's total and letter as the report card has them. A new-curriculum class's record
 * shows its exams' marks without grades, then per subject its competencies (each activity of
 * integration, their mean and identifier), the subject's mean, and its projects.
 */
function RecordTables({ record, onSubject }: { record: Record; onSubject(subject: SubjectResult): void }) {
  const { t } = useTranslation();
  const graded = record.curriculum === 'old';
  return (
    <Stack>
      {record.exams.map((exam) => {
        const perPaper = exam.subjects.some((subject) => subject.papers);
        return (
          <Card withBorder key={exam.marktype_id} data-testid={`exam-${exam.marktype}`}>
            <Title order={3} size="h5" mb="xs">
              {exam.marktype}
            </Title>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('fields.subject')}</Table.Th>
                  {perPaper && <Table.Th>{t('students.papers')}</Table.Th>}
                  <Table.Th>{perPaper ? t('fields.total') : t('students.mark')}</Table.Th>
                  {graded && <Table.Th>{t('fields.score')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {exam.subjects.map((subject) => (
                  <Table.Tr
                    key={subject.subject_id}
                    onClick={() => onSubject(subject)}
                    style={{ cursor: 'pointer' }}
                    data-subject={subject.subject}
                  >
                    <Table.Td>
                      <Text
                        component="button"
                        type="button"
                        c="var(--mantine-color-anchor)"
                        style={{ background: 'none', border: 0, padding: 0, cursor: 'pointer' }}
                      >
                        {subject.subject}
                      </Text>
                    </Table.Td>
                    {perPaper && (
                      <Table.Td>
                        {(subject.papers ?? [])
                          .map(
                            (paper) =>
                              `${paper.paper}: ${paper.mark === null ? ABSENT : `${NUMBER.format(paper.mark)} (${paper.score ?? '—'})`}`,
                          )
                          .join(' · ')}
                      </Table.Td>
                    )}
                    <Table.Td>
                      {subject.papers
                        ? subject.total == null
                          ? ''
                          : NUMBER.format(subject.total)
                        : subject.mark === null
                          ? subject.absent
                            ? ABSENT
                            : ''
                          : NUMBER.format(subject.mark)}
                    </Table.Td>
                    {graded && <Table.Td>{subject.score ?? ''}</Table.Td>}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        );
      })}
      {record.ncresults.length > 0 && (
        <Card withBorder data-testid="nc-results">
          <Title order={3} size="h5" mb="xs">
            {t('students.newCurriculum')}
          </Title>
          <Stack>
            {record.ncresults.map((subject) => (
              <Stack key={subject.subject_id} gap="xs" data-nc-block={subject.subject}>
                {/* On a phone the table scrolls sideways in its own box; its columns line up from subject to subject. */}
                <Table.ScrollContainer minWidth={NC_MIN_WIDTH} type="native">
                  <Table striped withTableBorder layout="fixed" style={NC_TABLE_STYLE} data-nc-subject={subject.subject}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th w="30%">{subject.subject}</Table.Th>
                        <Table.Th w="28%">{t('students.activities')}</Table.Th>
                        <Table.Th w="18%">{t('students.competencyScore')}</Table.Th>
                        <Table.Th w="24%">{t('students.identifier')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {subject.topics.map((topic) => (
                        <Table.Tr key={topic.topic_id} data-topic={topic.title}>
                          <Table.Td>{topic.title}</Table.Td>
                          <Table.Td>{topic.aois.map((aoi) => `${aoi.marktype}: ${aoi.mark ?? ''}`).join(' · ')}</Table.Td>
                          <Table.Td>{topic.mark ?? ABSENT}</Table.Td>
                          <Table.Td>{topic.score ? t(`students.descriptors.${topic.score}`) : ''}</Table.Td>
                        </Table.Tr>
                      ))}
                      {subject.topics.length > 0 && (
                        <Table.Tr fw={600} data-topic="average">
                          <Table.Td>{t('students.average')}</Table.Td>
                          <Table.Td />
                          <Table.Td>{subject.average ?? ''}</Table.Td>
                          <Table.Td>{subject.score ? t(`students.descriptors.${subject.score}`) : ''}</Table.Td>
                        </Table.Tr>
                      )}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                {subject.projects.length > 0 && (
                  <Table.ScrollContainer minWidth={NC_MIN_WIDTH} type="native">
                    <Table withTableBorder layout="fixed" style={NC_TABLE_STYLE} data-testid="nc-projects">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th w="30%">{t('students.project')}</Table.Th>
                          <Table.Th w="18%">{t('fields.score')}</Table.Th>
                          <Table.Th>{t('students.comment')}</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {subject.projects.map((project) => (
                          <Table.Tr key={project.project_id} data-project={project.title}>
                            <Table.Td>{project.title}</Table.Td>
                            <Table.Td style={{ whiteSpace: 'nowrap' }}>
                              {project.score === null ? '' : `${NUMBER.format(project.score)} / ${project.max_score}`}
                            </Table.Td>
                            <Table.Td>{project.comment ?? ''}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                )}
              </Stack>
            ))}
          </Stack>
        </Card>
      )}
    </Stack>
  );
}

/** Financial Records (spec §2): date, particulars, invoice, payment and the running balance. */
function Statement({ lines }: { lines: StatementLine[] }) {
  const { t } = useTranslation();
  if (lines.length === 0) return <Text c="dimmed">{t('students.noFinancialRecords')}</Text>;
  return (
    <Table striped withTableBorder data-testid="statement">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('students.date')}</Table.Th>
          <Table.Th>{t('students.particulars')}</Table.Th>
          <Table.Th ta="right">{t('students.invoice')}</Table.Th>
          <Table.Th ta="right">{t('students.payment')}</Table.Th>
          <Table.Th ta="right">{t('students.balance')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map((line) => (
          <Table.Tr key={line.id}>
            <Table.Td>{shortDate(line.date)}</Table.Td>
            <Table.Td>{line.particulars}</Table.Td>
            <Table.Td ta="right">{line.category === 'invoice' ? NUMBER.format(line.amount) : ''}</Table.Td>
            <Table.Td ta="right">{line.category === 'receipt' ? NUMBER.format(line.amount) : ''}</Table.Td>
            <Table.Td ta="right">{NUMBER.format(line.balance)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A part of the page whose call failed: what went wrong, and another try (not "Please wait" forever). */
function Failed({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" align="flex-start" data-testid="part-failed">
      <Text c="red" size="sm">
        {errorText(error)}
      </Text>
      <Button size="xs" variant="light" onClick={onRetry}>
        {t('app.retry')}
      </Button>
    </Stack>
  );
}

/** A learner (spec §2 "Student detail"): who they are, their academic records and their fees. */
export function StudentDetailPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { can } = useAccess();
  const [selected, setSelected] = useState(0);
  const [subject, setSubject] = useState<SubjectResult | null>(null);
  const student = useQuery({
    queryKey: ['student', id],
    queryFn: () => call(studentEndpoint, { params: { id: id ?? '' } }),
    meta: { ownsNotFound: true },
  });
  // Records and fees are asked for once the learner is known to be here, not three 404s at once.
  const found = student.isSuccess;
  const results = useQuery({
    queryKey: ['student-results', id],
    queryFn: () => call(studentResultsEndpoint, { params: { id: id ?? '' } }),
    enabled: found,
  });
  const mayReadFees = can('read', 'student');
  const statement = useQuery({
    queryKey: ['student-statement', id],
    queryFn: () => call(statementEndpoint, { query: { id: id ?? '' } }),
    enabled: mayReadFees && found,
  });

  if (student.isError)
    return (
      <RecordUnavailable
        error={student.error}
        notFoundText="students.notFound"
        back={{ to: PAGES.students.path, label: 'students.backToList' }}
        onRetry={() => void student.refetch()}
      />
    );
  if (!student.data) return <PageLoading />;
  const learner = student.data;
  const records = results.data?.results ?? [];
  const record = records[selected];
  return (
    <Stack>
      <Card withBorder>
        {/* Side by side on a wide screen; on a phone the photo sits above the details. */}
        <Flex direction={{ base: 'column', xs: 'row' }} align="flex-start" gap="md">
          <Photo student={learner} />
          <Stack gap="xs" style={{ flex: 1, minWidth: 0, width: '100%' }}>
            <Title order={1} size="h3">
              {learner.fullname}
            </Title>
            <Text c="dimmed">{learner.studentid}</Text>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} data-testid="student-facts">
              <Fact label={t('fields.phone')} value={learner.phone} />
              <Fact label={t('fields.address')} value={learner.address} />
              <Fact label={t('students.classAndStream')} value={[learner.form, learner.stream].filter(Boolean).join(' ')} />
              <Fact label={t('fields.email')} value={learner.email} />
              <Fact label={t('fields.paymentcode')} value={learner.paymentcode} />
              <Fact label={t('fields.gender')} value={learner.gender ? t(`students.gender${learner.gender}`) : null} />
              <Fact label={t('fields.dob')} value={dayMonthYear(learner.dob)} />
              <Fact label={t('fields.lin')} value={learner.lin} />
              <GuardianEmail learner={learner} onSaved={() => void student.refetch()} />
            </SimpleGrid>
          </Stack>
        </Flex>
      </Card>
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Card withBorder>
            <Title order={2} size="h5" mb="xs">
              {t('students.academicRecords')}
            </Title>
            {results.isError ? (
              <Failed error={results.error} onRetry={() => void results.refetch()} />
            ) : (
              records.length === 0 && <Text c="dimmed">{results.isPending ? t('home.pleaseWait') : t('students.noMarks')}</Text>
            )}
            <nav aria-label={t('students.academicRecords')} data-testid="academic-records">
              {records.map((entry, index) => (
                <NavLink
                  key={`${entry.form}-${entry.term}-${entry.year}`}
                  label={t('students.recordLabel', entry)}
                  active={index === selected}
                  onClick={() => setSelected(index)}
                />
              ))}
            </nav>
            {(results.data?.history ?? []).length > 0 && (
              <Text size="xs" c="dimmed" mt="sm">
                {t('students.earlierClasses')}: {results.data?.history.map((entry) => `${entry.form} (${entry.year})`).join(', ')}
              </Text>
            )}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>{record ? <RecordTables record={record} onSubject={setSubject} /> : null}</Grid.Col>
      </Grid>
      {mayReadFees && (
        <Card withBorder>
          <Title order={2} size="h5" mb="xs">
            {t('students.financialRecords')}
          </Title>
          {statement.data ? (
            <Statement lines={statement.data.statement} />
          ) : statement.isError ? (
            <Failed error={statement.error} onRetry={() => void statement.refetch()} />
          ) : (
            <Text c="dimmed">{t('home.pleaseWait')}</Text>
          )}
        </Card>
      )}
      <SubjectHistory results={records} subject={subject} onClose={() => setSubject(null)} />
    </Stack>
  );
}
