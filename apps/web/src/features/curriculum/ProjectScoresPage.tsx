import { Alert, Button, Card, FileInput, Group, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  myAssignmentsEndpoint,
  PROJECT_SCORE_MESSAGES,
  type ProjectScoreConflict,
  type ProjectScoresGrid,
  type ProjectScoresSaved,
  projectScoresGridEndpoint,
  RESULT_MESSAGES,
  saveProjectScoresEndpoint,
  type TERMS,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import {
  type ChangeEvent,
  type ClipboardEvent,
  type HTMLAttributes,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyNotice } from '../../components/EmptyNotice.js';
import { PageLoading } from '../../components/PageLoading.js';
import { RecordUnavailable } from '../../components/RecordUnavailable.js';
import { StreamSelect } from '../../components/StreamSelect.js';
import { ApiError, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { draftKey, sendUntilAnswered, useDraft } from '../../lib/drafts.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, notifyError, runLongAction } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { ConflictsAlert, DraftFound, type SaveState, SaveStatus } from '../../lib/typing.js';
import {
  applySaved,
  COLUMNS,
  type Column,
  cellErrors,
  cellKey,
  cellText,
  pasteAt,
  resolveConflict,
  type ScoresState,
  saveBody,
  scoresFrom,
  typeInto,
  unsavedRows,
} from './project-scores-grid.js';

/** A draft of one project's grid: its typed cells, the versions they were typed over, and the save on its way. */
interface ScoresDraft {
  typed: Record<string, string>;
  base: ScoresState['base'];
  saveId: string | null;
  at: number;
}

/**
 * Record project scores (`/school/projectscores/new?project_id=`, spec §2): the project's class,
 * stream (to choose), subject, term and year, then its learners with a Score and a Comment,
 * typed like the marks grid (Enter and the arrows down and up, Tab across, Esc undoes the cell,
 * a column pasted from a spreadsheet), kept in the browser as typed, saved whole with Record
 * Scores; the grid as a spreadsheet to download and to upload filled.
 */
export function ProjectScoresPage() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const [params] = useSearchParams();
  const projectId = params.get('project_id') ?? '';
  const [stream, setStream] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const query = { project_id: projectId, stream };
  const grid = useQuery({
    queryKey: ['project-scores-grid', session?.tenant?.id, projectId, stream],
    queryFn: async () => {
      const answer = await call(projectScoresGridEndpoint, { body: { ...query, excel: '0' } });
      if (!('students' in answer)) throw new Error('no grid');
      return answer;
    },
    enabled: projectId !== '',
    retry: false,
  });
  // The project as last loaded: the page keeps it (and its stream select) when a stream is refused.
  const [project, setProject] = useState<ProjectScoresGrid['project'] | null>(null);
  useEffect(() => {
    if (grid.data) setProject(grid.data.project);
  }, [grid.data]);
  // A teacher is offered the streams they teach the project's subject in (everyone else: every stream).
  const mine = useQuery({
    queryKey: ['my-assignments', session?.tenant?.id, project?.term, project?.year],
    queryFn: () => call(myAssignmentsEndpoint, { query: { term: project?.term as (typeof TERMS)[number], year: project?.year ?? 0 } }),
    enabled: project !== null,
  });
  const taught = useMemo(
    () =>
      mine.data?.reach.marks === 'assigned' && project
        ? mine.data.subjects.filter((row) => row.subject_id === project.subject_id && row.form.toLowerCase() === project.form.toLowerCase())
        : null,
    [mine.data, project],
  );

  const download = () =>
    void runLongAction(
      downloadFrom(projectScoresGridEndpoint, { body: { ...query, excel: '1' } }),
      translateMessage(RESULT_MESSAGES.excelReady),
    ).catch(() => undefined);

  const upload = async () => {
    if (!file) return;
    const form = new FormData();
    form.set('project_id', projectId);
    if (stream) form.set('stream', stream);
    form.set('file', file, file.name);
    setBusy(true);
    try {
      await runLongAction(call(projectScoresGridEndpoint, { body: form }), (answer) =>
        !('saved' in answer) || answer.saved === 0
          ? t('curriculum.scores.sheetUnchanged')
          : t('curriculum.scores.sheetSaved', { saved: answer.saved, unchanged: answer.unchanged }),
      );
      setFile(null);
      await grid.refetch();
    } catch {
      // runLongAction said what went wrong.
    } finally {
      setBusy(false);
    }
  };

  const refused = grid.error instanceof ApiError && grid.error.status === 403 ? translateMessage(grid.error.data?.message ?? '') : null;
  if (refused !== null && !project)
    return (
      <Alert color="red" data-testid="scores-refused">
        {refused}
      </Alert>
    );
  // No project named, or none of this school (422 naming project_id): the project is not here.
  const missing = projectId === '' || (grid.error instanceof ApiError && grid.error.status === 422);
  if (missing || (grid.error && refused === null))
    return (
      <RecordUnavailable
        error={missing ? new ApiError(404, '') : grid.error}
        notFoundText="curriculum.projectNotFound"
        back={{ to: PAGES.projects.path, label: 'curriculum.backToProjects' }}
        onRetry={() => void grid.refetch()}
      />
    );
  if (!project || !session?.tenant) return <PageLoading />;

  return (
    <Stack>
      <Card withBorder padding="md">
        <Stack>
          <Title order={1} size="h3">
            {t(PAGES.projectScores.title)}
          </Title>
          <Text fw={500}>{project.title}</Text>
          <SimpleGrid cols={{ base: 1, sm: 3, md: 5 }}>
            {/* The project's own class, subject, term and year: shown plainly, not as boxes to type in. */}
            <TextInput label={t('fields.form')} value={project.form} readOnly classNames={LOCKED} />
            <StreamSelect form={project.form} value={stream} onChange={setStream} taught={taught} />
            <TextInput label={t('fields.subject')} value={project.subject.name} readOnly classNames={LOCKED} />
            <TextInput label={t('fields.term')} value={project.term} readOnly classNames={LOCKED} />
            <TextInput label={t('fields.year')} value={String(project.year)} readOnly classNames={LOCKED} />
          </SimpleGrid>
          <Group align="flex-end">
            <Button variant="default" onClick={download} data-testid="download-scores">
              {t('curriculum.scores.download')}
            </Button>
            <FileInput
              label={t('marks.uploadFile')}
              accept=".xlsx"
              value={file}
              onChange={setFile}
              clearable
              placeholder={t('marks.chooseFile')}
              w={260}
            />
            <Button variant="default" disabled={!file} loading={busy} onClick={() => void upload()}>
              {t('curriculum.scores.upload')}
            </Button>
          </Group>
        </Stack>
      </Card>
      <Card withBorder padding="md">
        {refused !== null && (
          <Alert color="red" data-testid="scores-refused">
            {refused}
          </Alert>
        )}
        {grid.data && grid.data.students.length === 0 && (
          <EmptyNotice text={t('empty.noLearners')} to={PAGES.students.path} link={t('empty.addLearners')} testId="no-learners" />
        )}
        {grid.data && refused === null && (
          <ScoresGrid
            key={`${projectId}:${stream}:${grid.dataUpdatedAt}`}
            grid={grid.data}
            query={query}
            owner={{ tenantId: session.tenant.id, userId: session.user.id }}
          />
        )}
        {!grid.data && refused === null && <PageLoading />}
      </Card>
    </Stack>
  );
}

const MOVES: Record<string, 'up' | 'down'> = { ArrowUp: 'up', ArrowDown: 'down', Enter: 'down' };

/** A field the project fixes (layout.css): dark text on a quiet background. */
const LOCKED = { input: 'mustard-locked' };

/** A grid cell: the score a one-line input, the comment a textarea that grows to show all it says. */
type CellElement = HTMLInputElement | HTMLTextAreaElement;

type CellProps = Omit<HTMLAttributes<CellElement>, 'onChange'> & {
  multiline: boolean;
  ref(element: CellElement | null): void;
  value: string;
  maxLength: number;
  autoComplete: string;
  onChange(event: ChangeEvent<CellElement>): void;
};

/**
 * One cell of the grid. A comment wraps and grows (up to eight lines, then scrolls) so a long one
 * saved earlier is read whole; Enter still moves down the column, as in every other cell.
 */
function CellInput({ multiline, ref, ...props }: CellProps) {
  if (multiline)
    return <Textarea unstyled autosize minRows={1} maxRows={8} ref={ref} classNames={{ input: 'marks-cell marks-cell-text' }} {...props} />;
  return <input ref={ref} className="marks-cell" {...props} />;
}

/** The grid of learners with Score and Comment, and its Record Scores button. */
function ScoresGrid({
  grid,
  query,
  owner,
}: {
  grid: ProjectScoresGrid;
  query: { project_id: string; stream: string };
  owner: { tenantId: string; userId: string };
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<ScoresState>(() => scoresFrom(grid));
  const stateRef = useRef(state);
  stateRef.current = state;
  const key = useMemo(() => draftKey(owner, ['project_id', 'stream'], query, 'projectscores'), [owner, query]);
  const draft = useDraft<ScoresDraft>(key, (found) => Object.keys(found.typed).length > 0);
  const { found, kept } = draft;
  const [saving, setSaving] = useState<SaveState>({ kind: 'idle' });
  const saveIdRef = useRef<string | null>(null);
  const [conflicts, setConflicts] = useState<ProjectScoreConflict[]>([]);
  const [wrongCount, setWrongCount] = useState<number | null>(null);
  const [pasted, setPasted] = useState<ReturnType<typeof pasteAt> | null>(null);
  const cells = useRef(new Map<string, CellElement>());
  const editStart = useRef('');

  const errors = useMemo(() => cellErrors(state), [state]);
  const unsaved = useMemo(() => new Set(unsavedRows(state)), [state]);
  const names = useMemo(() => new Map(grid.students.map((row) => [row.student.id, row.student.fullname])), [grid]);
  const learners = useMemo(() => grid.students.map((row) => row.student), [grid]);

  const change = useCallback(
    (next: ScoresState) => {
      setState(next);
      setWrongCount(null);
      const rows = new Set(unsavedRows(next));
      const typed = Object.fromEntries(Object.entries(next.typed).filter(([cell]) => rows.has(cell.split(':')[0] ?? '')));
      draft.keep(
        Object.keys(typed).length === 0 && !saveIdRef.current
          ? null
          : { typed, base: next.base, saveId: saveIdRef.current, at: Date.now() },
      );
    },
    [draft.keep],
  );

  const restore = () => {
    if (!found) return;
    saveIdRef.current = found.saveId;
    change({ ...stateRef.current, base: { ...stateRef.current.base, ...found.base }, typed: found.typed });
    draft.dismiss(false);
  };

  const focusCell = (row: number, column: number) => {
    const learner = state.rows[row];
    const name = COLUMNS[column];
    if (learner && name) cells.current.get(cellKey(learner, name))?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<CellElement>, row: number, column: number) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
      return;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      change(typeInto(state, state.rows[row] as string, COLUMNS[column] as Column, editStart.current));
      return;
    }
    let move = MOVES[event.key];
    if (event.key === 'Enter' && event.shiftKey) move = 'up';
    if (!move) return;
    event.preventDefault();
    const to = Math.max(0, Math.min(state.rows.length - 1, row + (move === 'down' ? 1 : -1)));
    focusCell(to, column);
  };

  const onPaste = (event: ClipboardEvent<CellElement>, row: number, column: number) => {
    const text = event.clipboardData.getData('text/plain');
    if (!/[\t\n]/.test(text.trim())) return;
    event.preventDefault();
    const result = pasteAt(state, { row, column }, text, learners);
    change(result.state);
    setPasted(result);
  };

  const save = async () => {
    const wrong = Object.keys(errors).length;
    if (wrong > 0) {
      setWrongCount(wrong);
      return;
    }
    const { scores, base } = saveBody(stateRef.current);
    if (Object.keys(scores).length === 0) {
      notifications.show({ message: t('curriculum.scores.nothingToSave') });
      return;
    }
    saveIdRef.current ??= crypto.randomUUID();
    const saveId = saveIdRef.current;
    change(stateRef.current);
    try {
      const answer: ProjectScoresSaved = await sendUntilAnswered(
        () => {
          setSaving({ kind: 'saving' });
          return call(saveProjectScoresEndpoint, { body: { ...query, save_id: saveId, scores, base } });
        },
        (waiting) => setSaving({ kind: 'waiting', ...waiting }),
      );
      saveIdRef.current = null;
      change(applySaved(stateRef.current, scores, answer));
      setPasted(null);
      setConflicts([]);
      setSaving({ kind: 'idle' });
      notifications.show({ color: 'green', message: t('curriculum.scores.saved', { saved: answer.saved, unchanged: answer.unchanged }) });
    } catch (error) {
      saveIdRef.current = null;
      change(stateRef.current);
      setSaving({ kind: 'idle' });
      if (error instanceof ApiError && error.status === 409) {
        setConflicts((error.data as { conflicts?: ProjectScoreConflict[] } | undefined)?.conflicts ?? []);
        return;
      }
      if (error instanceof ApiError && error.status === 403)
        notifyError(new ApiError(422, error.data?.message ?? error.message, error.data));
      else notifications.show({ color: 'red', message: errorText(error) });
    }
  };

  const keep = (conflict: ProjectScoreConflict, which: 'theirs' | 'mine') => {
    change(resolveConflict(stateRef.current, conflict, which));
    setConflicts((all) => all.filter((other) => other !== conflict));
  };

  const shown = (value: { score: number | null; comment: string | null }) =>
    [value.score === null ? t('marks.empty') : String(value.score), value.comment].filter(Boolean).join(', ');
  const labels: Record<Column, string> = {
    score: t('curriculum.scores.score', { max: grid.project.max_score }),
    comment: t('fields.comment'),
  };

  return (
    <Stack data-testid="project-scores-grid">
      {found && (
        <DraftFound
          title={t('curriculum.scores.draftTitle')}
          text={t('curriculum.scores.draftText', {
            count: Object.keys(found.typed).length,
            when: new Date(found.at).toLocaleString('en-US'),
          })}
          onRestore={restore}
          onDiscard={() => draft.dismiss(true)}
        />
      )}
      <ConflictsAlert
        title={translateMessage(PROJECT_SCORE_MESSAGES.conflict)}
        conflicts={conflicts}
        keyOf={(conflict) => conflict.student_id}
        nameOf={(conflict) => names.get(conflict.student_id)}
        lineOf={(conflict) =>
          t('curriculum.scores.conflictLine', {
            learner: names.get(conflict.student_id) ?? '',
            theirs: shown(conflict.theirs),
            by: conflict.by ?? t('marks.someone'),
            yours: shown(conflict.yours),
          })
        }
        keep={keep}
      />
      <Group justify="space-between">
        <SaveStatus unsaved={unsaved.size} saving={saving} kept={kept} offlineText={t('curriculum.scores.offlineRetry')} />
        <Button onClick={() => void save()} loading={saving.kind !== 'idle'} data-testid="save-scores">
          {t('curriculum.recordScores')}
        </Button>
      </Group>
      {pasted && (
        <Alert
          color={pasted.by === 'position' ? 'yellow' : 'blue'}
          withCloseButton
          closeButtonLabel={t('list.close')}
          onClose={() => setPasted(null)}
          data-testid="paste-report"
        >
          {t('marks.pasted', { count: pasted.filled })} {t(`sheet.pasteBy.${pasted.by}`)}{' '}
          {t('sheet.pastedFor', { count: pasted.reached.length, names: pasted.reached.map((id) => names.get(id) ?? '').join(', ') })}
        </Alert>
      )}
      {wrongCount !== null && (
        <Alert color="red" data-testid="wrong-cells">
          {t('curriculum.scores.wrongCells', { count: wrongCount })}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={320}>
        <Table
          withTableBorder
          withColumnBorders
          role="grid"
          aria-label={t('curriculum.scores.gridLabel')}
          aria-rowcount={state.rows.length + 1}
        >
          <Table.Thead>
            <Table.Tr role="row">
              <Table.Th role="columnheader">{t('fields.studentid')}</Table.Th>
              <Table.Th role="columnheader" className="mustard-sheet-name">
                {t('fields.fullname')}
              </Table.Th>
              {COLUMNS.map((column) => (
                <Table.Th key={column} role="columnheader" ta="center">
                  {labels[column]}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {grid.students.map(({ student }, row) => (
              <Table.Tr key={student.id} role="row" data-learner={student.fullname}>
                <Table.Td role="gridcell">{student.studentid}</Table.Td>
                <Table.Td role="rowheader" className="mustard-sheet-name">
                  {student.fullname}
                </Table.Td>
                {COLUMNS.map((column, index) => {
                  const cell = cellKey(student.id, column);
                  const error = errors[cell];
                  const conflicted = conflicts.some((conflict) => conflict.student_id === student.id);
                  const edited = state.typed[cell] !== undefined;
                  return (
                    <Table.Td key={column} role="gridcell" p={0} bg={error || conflicted ? 'red.0' : edited ? 'yellow.0' : undefined}>
                      <CellInput
                        multiline={column === 'comment'}
                        ref={(element) => {
                          if (element) cells.current.set(cell, element);
                          else cells.current.delete(cell);
                        }}
                        value={cellText(state, student.id, column)}
                        inputMode={column === 'score' ? 'decimal' : 'text'}
                        maxLength={column === 'comment' ? 1000 : 20}
                        autoComplete="off"
                        aria-label={`${labels[column]}, ${student.fullname}`}
                        aria-invalid={error ? true : undefined}
                        title={error ? translateMessage(error) : undefined}
                        data-cell={`${row}:${index}`}
                        data-unsaved={edited ? 'yes' : undefined}
                        onFocus={(event) => {
                          editStart.current = cellText(state, student.id, column);
                          event.currentTarget.select();
                        }}
                        onChange={(event) => change(typeInto(state, student.id, column, event.currentTarget.value))}
                        onKeyDown={(event) => onKeyDown(event, row, index)}
                        onPaste={(event) => onPaste(event, row, index)}
                      />
                      {error && (
                        <Text size="xs" c="red" px={4} role="alert">
                          {translateMessage(error)}
                        </Text>
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
