import { ActionIcon, Button, Card, Group, Menu, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  commentWarnings,
  fillEmpty,
  namesHeadTeacher,
  ncRemarksEndpoint,
  personalise,
  REMARK_REPORT_TYPES,
  type RemarkConflict,
  type RemarkStudent,
  type Remarks,
  remarksEndpoint,
  remarkTypes,
  saveRemarksEndpoint,
  type Term,
} from '@mustard/shared';
import { IconWand } from '@tabler/icons-react';
import { type KeyboardEvent, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyNotice, useChoicesKnown } from '../../components/EmptyNotice.js';
import { useAccess } from '../../lib/access.js';
import { ApiError, call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { draftKey, sendUntilAnswered, useDraft } from '../../lib/drafts.js';
import { LoadedSheet, useSheetHeading } from '../../lib/loaded-sheet.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { ConflictsAlert, DraftFound, SavedTick, type SaveState, SaveStatus } from '../../lib/typing.js';
import { useChoices } from '../../resources/choices.js';
import { type OptionSpec, reportFields } from '../report-page/declaration.js';
import { TYPE_KEYS } from '../report-page/fields.js';
import { ReportFilterCard } from '../report-page/ReportFilterCard.js';
import { useSheetFilter } from '../report-page/useSheetFilter.js';
import { CurriculumNotice } from './CurriculumNotice.js';
import {
  applySaved,
  type Cell,
  cellErrorsOf,
  cellOf,
  resolveConflict,
  type SheetState,
  saveBodyOf,
  sheetFrom,
  tabFrom,
  textOf,
  typeInto,
  unsavedCells,
} from './remarks-sheet.js';

/*
 * Report comments (`/comments/report`, issue 16 points 2 to 4): a class's learners with their
 * results, and an input per remark type (and sub category) for the class teacher's and head
 * teacher's remarks. Each comment saves when the input loses focus, and shows a green Saved
 * tick; what is typed is kept in the browser at once, and a save without an answer waits for
 * the connection. `?remarktype_id=` (Record Comments of the remark types list) opens with that
 * remark type and long text.
 */

const REMARK_TYPE_CHOICES = { resource: remarkTypes, label: 'label', activeOnly: true } as const;
/** The report filter's fields and the remark type (one, or all of the report type). */
const GRID = reportFields('reportComments.reportType', ['remarktype_id']);
const OPTIONS: readonly OptionSpec[] = [
  { name: 'rawmark', label: 'reportComments.rawMarks' },
  { name: 'ta', label: 'reportComments.longText' },
];
/** New-curriculum remarks: no mark types or raw marks (competency scores are shown). */
const NC_GRID = reportFields('reportComments.reportType', ['remarktype_id'], ['marktype_ids']);
const NC_OPTIONS: readonly OptionSpec[] = [{ name: 'ta', label: 'reportComments.longText' }];

export function ReportCommentsPage() {
  return <RemarksPage nc={false} />;
}

/**
 * New-curriculum report comments (`/school/ncreportremark`, issue 27 point 3): the same screen
 * for a new-curriculum class, each learner's subject scores and overall score with its
 * identifier, the automatic comments matched to the overall score.
 */
export function NcRemarksPage() {
  return <RemarksPage nc />;
}

function RemarksPage({ nc }: { nc: boolean }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const [params] = useSearchParams();
  const fromList = params.get('remarktype_id');
  const { values, loaded, stale, card } = useSheetFilter({
    endpoint: nc ? ncRemarksEndpoint : remarksEndpoint,
    fields: nc ? NC_GRID : GRID,
    options: nc ? NC_OPTIONS : OPTIONS,
    initial: { remarktype_id: fromList, ta: fromList !== null },
    sheetOf: (answer, { form, stream, term, year, category }, values) => ({
      place: { form, stream: stream ?? null, term, year, category },
      answer,
      longText: values.ta,
    }),
  });
  const remarkTypeChoices = useChoices(REMARK_TYPE_CHOICES);
  const remarkTypesKnown = useChoicesKnown(remarkTypes);
  const heading = useSheetHeading();

  return (
    <Stack>
      <ReportFilterCard
        title={nc ? PAGES.ncRemarks.title : PAGES.reportComments.title}
        filterName={nc ? 'reportComments.ncFilter' : 'reportComments.filter'}
        {...card}
        types={REMARK_REPORT_TYPES}
        notice={
          <>
            {remarkTypesKnown && remarkTypeChoices.length === 0 && (
              <EmptyNotice
                text={t('empty.noRemarkTypes')}
                to={PAGES.remarkTypes.path}
                link={t('empty.openRemarkTypes')}
                testId="no-remark-types"
              />
            )}
            <CurriculumNotice
              form={values.form}
              year={values.year}
              screen={nc ? 'new' : 'old'}
              other={nc ? PAGES.reportComments : PAGES.ncRemarks}
            />
          </>
        }
      />
      {loaded && session?.tenant && (
        <LoadedSheet
          stale={stale}
          heading={heading({
            form: loaded.sheet.place.form,
            stream: loaded.sheet.place.stream,
            term: loaded.sheet.place.term,
            year: loaded.sheet.place.year,
            more: [
              t(`reportFilter.types.${TYPE_KEYS[loaded.sheet.place.category]}`),
              ...loaded.sheet.answer.remarktypes.map((type) => type.label),
            ],
          })}
        >
          <RemarksSheet
            // A new class is a new sheet: nothing typed for one class is shown against another.
            key={JSON.stringify(loaded.sheet.place) + loaded.sheet.answer.remarktypes.map((type) => type.id).join() + loaded.at}
            answer={loaded.sheet.answer}
            place={loaded.sheet.place}
            longText={loaded.sheet.longText}
            owner={{ tenantId: session.tenant.id, userId: session.user.id }}
          />
        </LoadedSheet>
      )}
    </Stack>
  );
}

/** Where a sheet's comments belong: sent with every save. */
interface Place {
  form: string;
  stream: string | null;
  term: Term;
  year: number;
  category: (typeof REMARK_REPORT_TYPES)[number];
}

interface RemarksDraft {
  typed: Record<Cell, string>;
  base: Record<Cell, number>;
  /** When it was last written (ms since 1970), to say how old it is. */
  at: number;
}

/** A remark type or sub category as an input of every learner. */
interface Column {
  id: string;
  label: string;
  numeric: boolean;
  /**
   * The head teacher's remark (or one of its sub categories), which only those who manage remarks
   * write (issue 23 item 8): a class teacher sees it, read only.
   */
  readOnly: boolean;
}

const DRAFT_NAMES = ['form', 'stream', 'term', 'year', 'category'];

function RemarksSheet({
  answer,
  place,
  longText,
  owner,
}: {
  answer: Remarks;
  place: Place;
  longText: boolean;
  owner: { tenantId: string; userId: string };
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<SheetState>(() => sheetFrom(answer.remarks));
  const stateRef = useRef(state);
  stateRef.current = state;
  const key = useMemo(() => draftKey(owner, DRAFT_NAMES, { ...place }, 'remarks'), [owner, place]);
  const draft = useDraft<RemarksDraft>(key, (found) => Object.keys(found.typed).length > 0);
  const [saving, setSaving] = useState<SaveState>({ kind: 'idle' });
  const [saved, setSaved] = useState<ReadonlySet<Cell>>(new Set());
  const [conflicts, setConflicts] = useState<RemarkConflict[]>([]);
  const [cellErrors, setCellErrors] = useState<Record<Cell, string>>({});
  const outbox = useRef(new Set<Cell>());
  const sending = useRef(false);
  const inputs = useRef(new Map<Cell, HTMLInputElement | HTMLTextAreaElement>());

  const managesRemarks = useAccess().can('manage', 'remark');
  const columns = useMemo<Column[]>(
    () =>
      answer.remarktypes.flatMap((type) => {
        const headOnly = !managesRemarks && namesHeadTeacher(type.label);
        return [
          { id: type.id, label: type.label, numeric: type.inputtype === 'number', readOnly: headOnly },
          ...type.children.map((child) => ({
            id: child.id,
            label: `${type.label}: ${child.label}`,
            numeric: child.inputtype === 'number',
            readOnly: headOnly || (!managesRemarks && namesHeadTeacher(child.label)),
          })),
        ];
      }),
    [answer, managesRemarks],
  );
  const students = answer.students;
  const unsaved = useMemo(() => new Set(unsavedCells(state)), [state]);

  /** Every change is kept in the browser at once: the draft is the unsaved cells and their versions. */
  const change = useCallback(
    (next: SheetState) => {
      stateRef.current = next;
      setState(next);
      const cells = unsavedCells(next);
      draft.keep(
        cells.length === 0
          ? null
          : {
              typed: Object.fromEntries(cells.map((cell) => [cell, next.typed[cell] ?? ''])),
              base: Object.fromEntries(cells.map((cell) => [cell, next.base[cell] ?? 0])),
              at: Date.now(),
            },
      );
    },
    [draft.keep],
  );

  /**
   * Sends what is waiting in the outbox, one save at a time (a blur during a save waits for the
   * next): a dropped connection holds the save until the connection returns; a conflict holds
   * back only the comments someone else changed, and the rest are sent again.
   */
  const flush = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    try {
      while (outbox.current.size > 0) {
        const cells = [...outbox.current].filter((cell) => unsavedCells(stateRef.current).includes(cell));
        outbox.current.clear();
        const { comment, base, sent } = saveBodyOf(stateRef.current, cells);
        if (Object.keys(sent).length === 0) continue;
        try {
          const answered = await sendUntilAnswered(
            () => {
              setSaving({ kind: 'saving' });
              return call(saveRemarksEndpoint, { body: { ...place, comment, base } });
            },
            (waiting) => setSaving({ kind: 'waiting', ...waiting }),
          );
          change(applySaved(stateRef.current, sent, answered.remarks));
          setSaved((now) => new Set([...now, ...Object.keys(sent)]));
          setCellErrors((now) => Object.fromEntries(Object.entries(now).filter(([cell]) => !(cell in sent))));
        } catch (error) {
          if (error instanceof ApiError && error.status === 409) {
            const found = ((error.data as { conflicts?: RemarkConflict[] } | undefined)?.conflicts ?? []) as RemarkConflict[];
            setConflicts((now) => [...now, ...found]);
            const held = new Set(found.map((conflict) => cellOf(conflict.remarktype_id, conflict.student_id)));
            // The save was all or nothing: the others go again, without the ones someone else changed.
            if (held.size > 0) for (const cell of Object.keys(sent)) if (!held.has(cell)) outbox.current.add(cell);
            continue;
          }
          if (error instanceof ApiError && error.status === 422 && error.data?.errors) {
            const named = cellErrorsOf(error.data.errors);
            setCellErrors((now) => ({
              ...now,
              ...Object.fromEntries(Object.entries(named).map(([cell, text]) => [cell, translateMessage(text)])),
            }));
            if (Object.keys(named).length > 0) {
              // Only the refused comments wait for the teacher; the others go again.
              for (const cell of Object.keys(sent)) if (!(cell in named)) outbox.current.add(cell);
              continue;
            }
          }
          notifications.show({
            color: 'red',
            message: error instanceof ApiError && error.status === 403 ? translateMessage(error.data?.message ?? '') : errorText(error),
          });
        }
      }
    } finally {
      sending.current = false;
      setSaving({ kind: 'idle' });
    }
  }, [change, place]);

  const send = (cells: readonly Cell[]) => {
    for (const cell of cells) outbox.current.add(cell);
    void flush();
  };

  const type = (cell: Cell, text: string) => {
    change(typeInto(stateRef.current, cell, text));
    setSaved((now) => (now.has(cell) ? new Set([...now].filter((other) => other !== cell)) : now));
    setCellErrors((now) => (cell in now ? Object.fromEntries(Object.entries(now).filter(([other]) => other !== cell)) : now));
  };

  /** Losing focus saves the comment when it has text (the spec: an empty input is not saved on blur). */
  const blur = (cell: Cell) => {
    if (textOf(stateRef.current, cell).trim() !== '' && unsavedCells(stateRef.current).includes(cell)) send([cell]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, column: number, row: number) => {
    if (event.key !== 'Tab') return;
    const to = tabFrom({ column, row }, { columns: columns.length, rows: students.length }, event.shiftKey);
    const target = to && inputs.current.get(cellOf(columns[to.column]?.id ?? '', students[to.row]?.id ?? ''));
    if (!target) return;
    event.preventDefault();
    target.focus();
  };

  const restore = () => {
    const found = draft.found;
    if (!found) return;
    change({
      ...stateRef.current,
      typed: { ...stateRef.current.typed, ...found.typed },
      base: { ...stateRef.current.base, ...found.base },
    });
    draft.dismiss(false);
    // What was typed and not saved is sent now (or when the connection returns), empty ones by Save all.
    send(Object.keys(found.typed).filter((cell) => (found.typed[cell] ?? '').trim() !== ''));
  };

  const fill = () => {
    const now = stateRef.current;
    const texts: Record<Cell, string> = {};
    const suggestions: Record<Cell, string | null> = {};
    for (const student of students)
      for (const column of columns) {
        if (column.readOnly) continue;
        const cell = cellOf(column.id, student.id);
        texts[cell] = textOf(now, cell);
        suggestions[cell] = student.suggestions[`rt_${column.id}`] ?? null;
      }
    const { comments, filled } = fillEmpty(texts, suggestions);
    let next = now;
    const changed: Cell[] = [];
    for (const [cell, text] of Object.entries(comments))
      if (text !== texts[cell]) {
        next = typeInto(next, cell, text);
        changed.push(cell);
      }
    change(next);
    notifications.show({ message: t('reportComments.filled', { count: filled }) });
    send(changed);
  };

  const keep = (conflict: RemarkConflict, which: 'theirs' | 'mine') => {
    change(resolveConflict(stateRef.current, conflict, which));
    setConflicts((all) => all.filter((other) => other !== conflict));
    if (which === 'mine') send([cellOf(conflict.remarktype_id, conflict.student_id)]);
  };

  const labels = useMemo(() => new Map(columns.map((column) => [column.id, column.label])), [columns]);
  const names = useMemo(() => new Map(students.map((student) => [student.id, student.fullname])), [students]);

  if (students.length === 0)
    return (
      <EmptyNotice text={t('reportComments.noLearners')} to={PAGES.students.path} link={t('empty.addLearners')} testId="no-learners" />
    );
  if (columns.length === 0)
    return (
      <EmptyNotice
        text={t('reportComments.noRemarkTypes')}
        to={PAGES.remarkTypes.path}
        link={t('empty.openRemarkTypes')}
        testId="no-remark-types"
      />
    );

  return (
    <Stack data-testid="remarks-sheet">
      {draft.found && (
        <DraftFound
          title={t('reportComments.draftTitle')}
          text={t('reportComments.draftText', {
            count: Object.keys(draft.found.typed).length,
            when: new Date(draft.found.at).toLocaleString('en-US'),
          })}
          onRestore={restore}
          onDiscard={() => draft.dismiss(true)}
        />
      )}
      <ConflictsAlert
        title={t('reportComments.conflictTitle')}
        conflicts={conflicts}
        keyOf={(conflict) => cellOf(conflict.remarktype_id, conflict.student_id)}
        nameOf={(conflict) => names.get(conflict.student_id)}
        lineOf={(conflict) =>
          t('reportComments.conflictLine', {
            type: labels.get(conflict.remarktype_id) ?? '',
            learner: names.get(conflict.student_id) ?? '',
            theirs: conflict.theirs || t('comments.empty'),
            by: conflict.by ?? t('comments.someone'),
            yours: conflict.yours || t('comments.empty'),
          })
        }
        keep={keep}
      />
      <Group justify="space-between">
        <SaveStatus unsaved={unsaved.size} saving={saving} kept={draft.kept} offlineText={t('comments.offlineRetry')} />
        <Group gap="xs">
          <Button variant="default" leftSection={<IconWand size={16} />} onClick={fill}>
            {t('reportComments.fillEmpty')}
          </Button>
          <Button onClick={() => send(unsavedCells(stateRef.current))} loading={saving.kind !== 'idle'} data-testid="save-remarks">
            {t('reportComments.saveAll')}
          </Button>
        </Group>
      </Group>
      {students.map((student, row) => (
        <Card key={student.id} withBorder padding="sm" data-learner={student.fullname}>
          <Stack gap="xs">
            {student.ncsubjects ? <NcLearnerResults student={student} /> : <LearnerResults student={student} category={place.category} />}
            {columns.map((column, index) => {
              const cell = cellOf(column.id, student.id);
              const text = textOf(state, cell);
              const warnings = cell in state.typed ? commentWarnings(text, student, students) : [];
              const autos = answer.autocomments.filter((auto) => auto.remarktype_id === column.id);
              const input = {
                label: column.label,
                'aria-label': `${column.label}, ${student.fullname}`,
                value: text,
                error: cellErrors[cell],
                'data-cell': `${index}:${row}`,
                'data-unsaved': unsaved.has(cell) ? 'yes' : undefined,
                inputMode: column.numeric ? ('decimal' as const) : undefined,
                readOnly: column.readOnly,
                description: column.readOnly ? t('reportComments.headTeacherWrites') : undefined,
                onBlur: () => blur(cell),
                onKeyDown: (event: KeyboardEvent<HTMLElement>) => onKeyDown(event, index, row),
                rightSection: autos.length > 0 && !column.readOnly && (
                  <AutoComments
                    autos={autos}
                    student={student}
                    suggestion={student.suggestions[`rt_${column.id}`] ?? null}
                    choose={(chosen) => {
                      type(cell, chosen);
                      send([cell]);
                    }}
                  />
                ),
              };
              return (
                <Stack key={column.id} gap={2}>
                  {longText ? (
                    <Textarea
                      {...input}
                      ref={(element) => {
                        if (element) inputs.current.set(cell, element);
                        else inputs.current.delete(cell);
                      }}
                      autosize
                      minRows={2}
                      onChange={(event) => type(cell, event.currentTarget.value)}
                    />
                  ) : (
                    <TextInput
                      {...input}
                      ref={(element) => {
                        if (element) inputs.current.set(cell, element);
                        else inputs.current.delete(cell);
                      }}
                      onChange={(event) => type(cell, event.currentTarget.value)}
                    />
                  )}
                  {saved.has(cell) && !unsaved.has(cell) && <SavedTick />}
                  {warnings.map((warning) => (
                    <Text key={warning.kind} size="xs" c="orange" role="status" data-testid="comment-warning">
                      {warning.kind === 'otherLearner'
                        ? t('comments.warnOtherLearner', { name: warning.name })
                        : t('comments.warnPronouns', { words: warning.words.join(', ') })}
                    </Text>
                  ))}
                </Stack>
              );
            })}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** A learner's results as the report card has them: each subject's marks (assessment) or total and grade. */
function LearnerResults({ student, category }: { student: RemarkStudent; category: Place['category'] }) {
  const { t } = useTranslation();
  const figures: Array<[string, string | number | null]> = [
    [t('reportComments.total'), student.total],
    [t('reportComments.average'), student.average],
    [t('reportComments.aggregate'), student.aggregate],
    [t('reportComments.division'), student.division],
    [t('reportComments.points'), student.points],
  ];
  return (
    <Stack gap={2}>
      <Group justify="space-between">
        <Text fw={600}>
          {student.fullname}{' '}
          <Text span c="dimmed" size="sm">
            {student.studentid}
          </Text>
        </Text>
        <Group gap="md">
          {figures
            .filter(([, value]) => value !== null)
            .map(([label, value]) => (
              <Text key={label} size="sm">
                {label}: <b>{value}</b>
              </Text>
            ))}
        </Group>
      </Group>
      <Group gap="sm">
        {student.marks.map((subject) => (
          <Text key={subject.subject_id} size="xs" c="dimmed">
            {subject.code ?? subject.subject}:{' '}
            {category === 'assesment'
              ? Object.entries(subject.marks)
                  .map(([label, mark]) => `${label} ${mark ?? '-'}`)
                  .join(' · ')
              : `${subject.total ?? '-'} ${subject.grade ?? ''}`}
          </Text>
        ))}
      </Group>
    </Stack>
  );
}

/** A new-curriculum learner's results: the overall score and identifier, and each subject's score and identifier. */
function NcLearnerResults({ student }: { student: RemarkStudent }) {
  const { t } = useTranslation();
  const identifier = (value: string | null | undefined) => (value ? t(`students.descriptors.${value}`, { defaultValue: value }) : '');
  return (
    <Stack gap={2}>
      <Group justify="space-between">
        <Text fw={600}>
          {student.fullname}{' '}
          <Text span c="dimmed" size="sm">
            {student.studentid}
          </Text>
        </Text>
        {student.score !== null && student.score !== undefined && (
          <Text size="sm" data-testid="overall-score">
            {t('reportComments.overall')}: <b>{student.score}</b> {identifier(student.identifier)}
          </Text>
        )}
      </Group>
      <Group gap="sm">
        {(student.ncsubjects ?? []).map((subject) => (
          <Text key={subject.subject_id} size="xs" c="dimmed">
            {subject.subject}: {subject.score ?? '-'} {identifier(subject.identifier)}
          </Text>
        ))}
      </Group>
    </Stack>
  );
}

/** The automatic comments of a remark type for this learner, the one matching their result first. */
function AutoComments({
  autos,
  student,
  suggestion,
  choose,
}: {
  autos: Remarks['autocomments'];
  student: RemarkStudent;
  suggestion: string | null;
  choose: (text: string) => void;
}) {
  const { t } = useTranslation();
  const texts = autos.map((auto) => ({ range: `${auto.score}–${auto.upper}`, text: personalise(auto.comment, student) }));
  const ordered = [...texts.filter((auto) => auto.text === suggestion), ...texts.filter((auto) => auto.text !== suggestion)];
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={t('reportComments.autoComments', { name: student.fullname })}>
          <IconWand size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown maw={480}>
        {ordered.map((auto) => (
          <Menu.Item key={`${auto.range}:${auto.text}`} onClick={() => choose(auto.text)}>
            <Text size="xs" c="dimmed">
              {auto.range}
              {auto.text === suggestion ? ` · ${t('reportComments.matches')}` : ''}
            </Text>
            <Text size="sm">{auto.text}</Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
