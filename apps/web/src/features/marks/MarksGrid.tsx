import { Alert, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  formatMark,
  type MarksGrid as Grid,
  MARK_MESSAGES,
  type MarksGridQuery,
  type MarksSaved,
  type MarkValue,
  markHistoryEndpoint,
  saveMarksEndpoint,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { type ClipboardEvent, type KeyboardEvent, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../lib/api.js';
import { sendUntilAnswered, useDraft } from '../../lib/drafts.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText } from '../../lib/notify.js';
import { ConflictsAlert, DraftFound, type SaveState, SaveStatus } from '../../lib/typing.js';
import { draftKey, type MarksDraft } from './drafts.js';
import {
  applySaved,
  cellErrors,
  cellText,
  type GridState,
  gridFrom,
  keyOf,
  type Move,
  moveFrom,
  pasteAt,
  resolveConflict,
  saveBody,
  typeInto,
  unsavedKeys,
} from './grid.js';

/** A 409's cell as the grid shows it. */
interface Conflict {
  marktype_id: string;
  student_id: string;
  theirs: MarkValue;
  version: number;
  yours: MarkValue;
  by: string | null;
}

const KEYS: Record<string, Move> = { ArrowUp: 'up', ArrowDown: 'down', Enter: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

/**
 * The marks grid (issue 14): learners by mark type, typed like a spreadsheet (arrows, Enter
 * down the column, Tab across, Esc undoes the cell, Home/End, paste of a block), checked as
 * typed, kept in the browser at every change, saved whole with retries that never save twice,
 * and a conflict shown cell by cell with both values.
 */
export function MarksGrid({
  grid,
  query,
  owner,
  mayChangePublished,
}: {
  grid: Grid;
  query: MarksGridQuery;
  owner: { tenantId: string; userId: string };
  mayChangePublished: boolean;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<GridState>(() => gridFrom(grid, mayChangePublished));
  const stateRef = useRef(state);
  stateRef.current = state;
  const key = useMemo(() => draftKey(owner, query), [owner, query]);
  const draft = useDraft<MarksDraft>(key, (found) => Object.keys(found.typed).length > 0);
  const { found, kept } = draft;
  const [saving, setSaving] = useState<SaveState>({ kind: 'idle' });
  const saveIdRef = useRef<string | null>(null);
  const [conflicts, setConflicts] = useState<Conflict[]>([]);
  const [wrongCount, setWrongCount] = useState<number | null>(null);
  const [focused, setFocused] = useState<{ row: number; column: number } | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [pasted, setPasted] = useState<ReturnType<typeof pasteAt> | null>(null);
  const reached = useMemo(() => new Set(pasted?.reached ?? []), [pasted]);
  const cells = useRef(new Map<string, HTMLInputElement>());
  const editStart = useRef<string>('');

  const errors = useMemo(() => cellErrors(state), [state]);
  const unsaved = useMemo(() => new Set(unsavedKeys(state)), [state]);
  const names = useMemo(() => new Map(grid.students.map((row) => [row.student.id, row.student.fullname])), [grid]);
  const learners = useMemo(() => grid.students.map((row) => row.student), [grid]);
  const labels = useMemo(() => new Map(grid.marktypes.map((type) => [type.id, type.label])), [grid]);

  /** Every change is kept at once: the draft is the grid's typed cells and the save on its way. */
  const change = useCallback(
    (next: GridState) => {
      setState(next);
      setWrongCount(null);
      const typed = Object.fromEntries(unsavedKeys(next).map((cell) => [cell, next.typed[cell] ?? '']));
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
    const type = state.columns[column];
    if (learner && type) cells.current.get(keyOf(learner, type.id))?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, row: number, column: number) => {
    // Ctrl+Enter saves, as on the comment sheets (issue 24 point 7).
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
      return;
    }
    let move: Move | undefined = KEYS[event.key];
    if (event.key === 'Home') move = event.ctrlKey ? 'first' : 'home';
    if (event.key === 'End') move = event.ctrlKey ? 'last' : 'end';
    if (event.key === 'Enter' && event.shiftKey) move = 'up';
    if (event.key === 'Escape') {
      event.preventDefault();
      const learner = state.rows[row] as string;
      const type = state.columns[column]?.id as string;
      change(typeInto(state, keyOf(learner, type), editStart.current));
      return;
    }
    if (!move) return;
    event.preventDefault();
    const to = moveFrom(state, { row, column }, move);
    focusCell(to.row, to.column);
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>, row: number, column: number) => {
    const text = event.clipboardData.getData('text/plain');
    // One value typed in by paste is ordinary typing; a block fills down and across.
    if (!/[\t\n]/.test(text.trim())) return;
    event.preventDefault();
    const pasted = pasteAt(state, { row, column }, text, learners);
    change(pasted.state);
    // Whom the block reached is shown until the save: a block pasted by position may sit on the wrong learners.
    setPasted(pasted);
  };

  /**
   * Sends the unsaved cells with one save_id for every try: a timeout or a dropped connection
   * is tried again (after the connection is back), and the server answers a repeat as the first.
   */
  const save = async () => {
    const wrong = Object.keys(errors).length;
    if (wrong > 0) {
      setWrongCount(wrong);
      return;
    }
    const { marks, base } = saveBody(stateRef.current);
    if (Object.keys(marks).length === 0) {
      notifications.show({ message: t('marks.nothingToSave') });
      return;
    }
    saveIdRef.current ??= crypto.randomUUID();
    const saveId = saveIdRef.current;
    change(stateRef.current);
    const { marktypes: _types, studentcategory_id: _category, excel: _excel, ...place } = query;
    try {
      const answer: MarksSaved = await sendUntilAnswered(
        () => {
          setSaving({ kind: 'saving' });
          return call(saveMarksEndpoint, { body: { ...place, save_id: saveId, marks, base } });
        },
        (waiting) => setSaving({ kind: 'waiting', ...waiting }),
      );
      saveIdRef.current = null;
      change(applySaved(stateRef.current, marks, answer));
      setPasted(null);
      setConflicts([]);
      setSaving({ kind: 'idle' });
      notifications.show({ color: 'green', message: t('marks.gridSaved', { saved: answer.saved, unchanged: answer.unchanged }) });
    } catch (error) {
      // Answered: this save is over; the next one is new.
      saveIdRef.current = null;
      change(stateRef.current);
      setSaving({ kind: 'idle' });
      if (error instanceof ApiError && error.status === 409) {
        setConflicts(((error.data as { conflicts?: Conflict[] } | undefined)?.conflicts ?? []) as Conflict[]);
        return;
      }
      const message = error instanceof ApiError && error.status === 403 ? translateMessage(error.data?.message ?? '') : errorText(error);
      notifications.show({ color: 'red', message });
    }
  };

  const keep = (conflict: Conflict, which: 'theirs' | 'mine') => {
    change(resolveConflict(stateRef.current, conflict, which));
    setConflicts((all) => all.filter((other) => other !== conflict));
  };

  const focusedKey = focused ? keyOf(state.rows[focused.row] ?? '', state.columns[focused.column]?.id ?? '') : null;

  return (
    <Stack data-testid="marks-grid">
      {found && (
        <DraftFound
          title={t('marks.draftTitle')}
          text={t('marks.draftText', { count: Object.keys(found.typed).length, when: new Date(found.at).toLocaleString('en-US') })}
          onRestore={restore}
          onDiscard={() => draft.dismiss(true)}
        />
      )}
      <ConflictsAlert
        title={translateMessage(MARK_MESSAGES.conflict)}
        conflicts={conflicts}
        keyOf={(conflict) => keyOf(conflict.student_id, conflict.marktype_id)}
        nameOf={(conflict) => names.get(conflict.student_id)}
        lineOf={(conflict) =>
          t('marks.conflictLine', {
            type: labels.get(conflict.marktype_id) ?? '',
            learner: names.get(conflict.student_id) ?? '',
            theirs: formatMark(conflict.theirs) || t('marks.empty'),
            by: conflict.by ?? t('marks.someone'),
            yours: formatMark(conflict.yours) || t('marks.empty'),
          })
        }
        keep={keep}
      />
      <Group justify="space-between">
        <SaveStatus unsaved={unsaved.size} saving={saving} kept={kept} offlineText={t('marks.offlineRetry')} />
        <Group gap="xs">
          <Button variant="default" disabled={!focusedKey} onClick={() => setHistoryOpen(true)}>
            {t('marks.history')}
          </Button>
          <Button onClick={() => void save()} loading={saving.kind !== 'idle'} data-testid="save-marks">
            {t('marks.save')}
          </Button>
        </Group>
      </Group>
      {pasted && <PasteReport pasted={pasted} names={pasted.reached.map((id) => names.get(id) ?? '')} onClose={() => setPasted(null)} />}
      {wrongCount !== null && (
        <Alert color="red" data-testid="wrong-cells">
          {t('marks.wrongCells', { count: wrongCount })}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={320}>
        <Table withTableBorder withColumnBorders role="grid" aria-label={t('marks.gridLabel')} aria-rowcount={state.rows.length + 1}>
          <Table.Thead>
            <Table.Tr role="row">
              <Table.Th role="columnheader">{t('fields.studentid')}</Table.Th>
              <Table.Th role="columnheader" className="mustard-sheet-name">
                {t('fields.fullname')}
              </Table.Th>
              {grid.marktypes.map((type, index) => (
                <Table.Th key={type.id} role="columnheader" ta="center">
                  {type.label} / {type.outof}
                  {state.columns[index]?.locked && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      ({t('marks.published')})
                    </Text>
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {grid.students.map(({ student }, row) => (
              <Table.Tr
                key={student.id}
                role="row"
                data-learner={student.fullname}
                data-pasted={reached.has(student.id) ? 'yes' : undefined}
              >
                <Table.Td role="gridcell">{student.studentid}</Table.Td>
                <Table.Td role="rowheader" className="mustard-sheet-name" bg={reached.has(student.id) ? 'blue.1' : undefined}>
                  {student.fullname}
                </Table.Td>
                {state.columns.map((column, index) => {
                  const cell = keyOf(student.id, column.id);
                  const error = errors[cell];
                  const conflicted = conflicts.some((conflict) => keyOf(conflict.student_id, conflict.marktype_id) === cell);
                  return (
                    <Table.Td
                      key={column.id}
                      role="gridcell"
                      p={0}
                      bg={error || conflicted ? 'red.0' : unsaved.has(cell) ? 'yellow.0' : undefined}
                    >
                      <input
                        ref={(element) => {
                          if (element) cells.current.set(cell, element);
                          else cells.current.delete(cell);
                        }}
                        className="marks-cell"
                        value={cellText(state, cell)}
                        readOnly={column.locked}
                        inputMode="decimal"
                        autoComplete="off"
                        aria-label={`${labels.get(column.id)}, ${student.fullname}`}
                        aria-invalid={error ? true : undefined}
                        title={error ? translateMessage(error) : undefined}
                        data-cell={`${row}:${index}`}
                        data-unsaved={unsaved.has(cell) ? 'yes' : undefined}
                        onFocus={(event) => {
                          editStart.current = cellText(state, cell);
                          setFocused({ row, column: index });
                          event.currentTarget.select();
                        }}
                        onChange={(event) => change(typeInto(state, cell, event.currentTarget.value))}
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
      {historyOpen && focused && (
        <CellHistory
          onClose={() => setHistoryOpen(false)}
          title={`${labels.get(state.columns[focused.column]?.id ?? '')}, ${names.get(state.rows[focused.row] ?? '')}`}
          cell={{
            student_id: state.rows[focused.row] ?? '',
            marktype_id: state.columns[focused.column]?.id ?? '',
            subject_id: query.subject_id,
            term: query.term,
            year: query.year,
            paper: query.paper,
            ...(query.topic_id ? { topic_id: query.topic_id } : {}),
          }}
        />
      )}
    </Stack>
  );
}

/**
 * What a paste did, shown until the save: how its lines found their learners (student id, name,
 * or position from the focused row), the learners who received values (also highlighted in the
 * grid), and the lines that named no learner of the grid, two of them, or one already pasted.
 */
function PasteReport({ pasted, names, onClose }: { pasted: ReturnType<typeof pasteAt>; names: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const lines = pasted.unmatched.map((line) => t('sheet.pasteLine', { line: line.line, text: line.text })).join('; ');
  return (
    <Alert
      color={pasted.by === 'position' || pasted.unmatched.length > 0 ? 'yellow' : 'blue'}
      title={`${t('marks.pasted', { count: pasted.filled })} ${t(`sheet.pasteBy.${pasted.by}`)}`}
      withCloseButton
      closeButtonLabel={t('list.close')}
      onClose={onClose}
      data-testid="paste-report"
      data-by={pasted.by}
    >
      <Stack gap={4}>
        <Text size="sm" data-testid="pasted-learners">
          {t('sheet.pastedFor', { count: names.length, names: names.join(', ') })}
        </Text>
        {pasted.unmatched.length > 0 && (
          <Text size="sm" data-testid="paste-unmatched">
            {t('sheet.pasteUnmatched', { count: pasted.unmatched.length, lines })}
          </Text>
        )}
        {pasted.skipped > 0 && <Text size="sm">{t('marks.pasteSkipped', { count: pasted.skipped })}</Text>}
      </Stack>
    </Alert>
  );
}

/** A cell's history: every change, newest first, with who made it and how. */
function CellHistory({
  cell,
  title,
  onClose,
}: {
  cell: {
    student_id: string;
    marktype_id: string;
    subject_id: string;
    term: MarksGridQuery['term'];
    year: number;
    paper: MarksGridQuery['paper'];
    topic_id?: string;
  };
  title: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const history = useQuery({ queryKey: ['mark-history', cell], queryFn: () => call(markHistoryEndpoint, { query: cell }) });
  return (
    <Modal opened onClose={onClose} title={t('marks.historyOf', { cell: title })} closeButtonProps={{ 'aria-label': t('list.close') }}>
      <Stack data-testid="mark-history">
        {history.isPending && <Text c="dimmed">{t('app.loading')}</Text>}
        {history.data?.history.length === 0 && <Text c="dimmed">{t('marks.noHistory')}</Text>}
        {history.data?.history.map((entry, index) => (
          <Text key={`${entry.at}-${index}`} size="sm" data-history-entry>
            {t('marks.historyLine', {
              old: formatMark(entry.old) || t('marks.empty'),
              new: formatMark(entry.new) || t('marks.empty'),
              user: entry.user ?? t('marks.someone'),
              when: new Date(entry.at).toLocaleString('en-US'),
              source: t(`marks.source.${entry.source}`),
            })}
          </Text>
        ))}
      </Stack>
    </Modal>
  );
}
