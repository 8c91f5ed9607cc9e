import { Alert, Button, Group, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  COMMENT_MESSAGES,
  type CommentConflict,
  type CommentWarning,
  formatMark,
  type MarkComments,
  type MarkCommentsQuery,
  type MarkCommentsSaved,
  type NcScore,
  saveGenericCommentsEndpoint,
  saveMarkCommentsEndpoint,
  saveNcCommentsEndpoint,
} from '@mustard/shared';
import { type KeyboardEvent, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyNotice } from '../../components/EmptyNotice.js';
import { ApiError, call } from '../../lib/api.js';
import { draftKey, sendUntilAnswered, useDraft } from '../../lib/drafts.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { ConflictsAlert, DraftFound, SavedTick, type SaveState, SaveStatus } from '../../lib/typing.js';
import {
  applySaved,
  type BaseComment,
  type CommentsState,
  commentErrors,
  commentsFrom,
  commentText,
  draftOf,
  fillEmptyComments,
  papersOf,
  resolveConflict,
  restoreDraft,
  saveBody,
  typeComment,
  unsavedIds,
  warningsOf,
} from './sheet.js';

/** Subject comments, generic skills or new-curriculum comments: the same screen, each with its own endpoints, words and drafts. */
export type CommentsKind = 'markcomments' | 'genericcomments' | 'nccomments';

const SAVE_ENDPOINTS = {
  markcomments: saveMarkCommentsEndpoint,
  genericcomments: saveGenericCommentsEndpoint,
  nccomments: saveNcCommentsEndpoint,
} as const;
/** The locale group of each screen's own words. */
export const KIND_KEYS = { markcomments: 'subject', genericcomments: 'generic', nccomments: 'nc' } as const;

/** A new-curriculum score as a cell shows it: the score to one decimal and its identifier. */
function NcScoreCell({ score, testId }: { score: NcScore | undefined; testId: string }) {
  const { t } = useTranslation();
  if (!score || score.score === null) return <Table.Td ta="center" data-testid={testId} />;
  return (
    <Table.Td ta="center" data-testid={testId}>
      {score.score}
      {score.identifier && ' '}
      {score.identifier && (
        <Text span size="xs" c="dimmed" data-identifier>
          {t(`students.descriptors.${score.identifier}`, { defaultValue: score.identifier })}
        </Text>
      )}
    </Table.Td>
  );
}

/** A screen's draft: the comments typed and not yet seen saved, over the versions they were typed over. */
export interface CommentsDraft {
  typed: Record<string, string>;
  base: Record<string, BaseComment>;
  /** When it was last written (ms since 1970), to say how old it is. */
  at: number;
}

/** What names a screen's comments (the display choices, mark types and raw marks, do not). */
const DRAFT_NAMES = ['form', 'stream', 'term', 'year', 'category', 'subject_id'];

/**
 * A class's learners in one subject (issue 16 points 1, 3, 4 and 6): their marks by mark type
 * (per paper in S5 and S6), total and grade, and a comment each, typed down the class with Tab
 * and saved whole with SAVE or Ctrl+Enter. Every change is kept in the browser until a save
 * has landed; a save that gets no answer is sent again when the connection is back; a comment
 * someone else changed meanwhile is shown with both texts. "Fill empty comments" starts the
 * empty ones from the school's automatic comments; a typed comment naming another learner or
 * with the other sex's pronouns is flagged.
 */
export function CommentsSheet({
  answer,
  query,
  kind,
  owner,
}: {
  answer: MarkComments;
  query: MarkCommentsQuery;
  kind: CommentsKind;
  owner: { tenantId: string; userId: string };
}) {
  const { t } = useTranslation();
  const words = `comments.${KIND_KEYS[kind]}`;
  const [state, setState] = useState<CommentsState>(() => commentsFrom(answer));
  const stateRef = useRef(state);
  stateRef.current = state;
  const key = useMemo(
    () =>
      draftKey(
        owner,
        DRAFT_NAMES,
        { ...query, form: query.form.trim().toLowerCase(), stream: query.stream?.trim().toLowerCase() ?? null },
        kind,
      ),
    [owner, query, kind],
  );
  const draft = useDraft<CommentsDraft>(key, (found) => Object.keys(found.typed).length > 0);
  const { found, kept } = draft;
  const foundRef = useRef(found);
  foundRef.current = found;
  const [saving, setSaving] = useState<SaveState>({ kind: 'idle' });
  const [conflicts, setConflicts] = useState<CommentConflict[]>([]);
  const [wrongCount, setWrongCount] = useState<number | null>(null);
  const [refused, setRefused] = useState<Record<string, string>>({});
  /** Learners whose comment the last saves stored and that are not typed over since: their Saved marker. */
  const [savedIds, setSavedIds] = useState<ReadonlySet<string>>(new Set());

  const unsaved = useMemo(() => new Set(unsavedIds(state)), [state]);
  const errors = useMemo(() => commentErrors(state), [state]);
  const warnings = useMemo(() => warningsOf(state, answer.students), [state, answer.students]);
  const records = useMemo(() => new Map(answer.records.map((record) => [record.student_id, record])), [answer.records]);
  const papers = useMemo(() => papersOf(answer.records), [answer.records]);
  const perPaper = answer.records.some((record) => record.papers !== undefined);
  /** A new-curriculum class: competency scores and the subject's identifier in place of marks, total and grade. */
  const competencies = answer.curriculum === 'new' ? (answer.topics ?? []) : null;

  /**
   * Every change is kept at once. A draft found from before and not yet restored or discarded
   * is kept with it, so typing before answering the offer loses neither.
   */
  const change = useCallback(
    (next: CommentsState) => {
      setState(next);
      setWrongCount(null);
      const now = draftOf(next);
      const earlier = foundRef.current;
      const typed = { ...(earlier?.typed ?? {}), ...now.typed };
      const base = { ...(earlier?.base ?? {}), ...now.base };
      draft.keep(Object.keys(typed).length === 0 ? null : { typed, base, at: Date.now() });
    },
    [draft.keep],
  );

  const restore = () => {
    if (!found) return;
    foundRef.current = null;
    change(restoreDraft(stateRef.current, found));
    draft.dismiss(false);
  };

  const discard = () => {
    foundRef.current = null;
    draft.dismiss(true);
    // What is typed now stays kept.
    change(stateRef.current);
  };

  const fill = () => {
    if (answer.autocomments.length === 0) {
      notifications.show({ message: t('comments.noAutoComments') });
      return;
    }
    const filled = fillEmptyComments(stateRef.current, answer);
    if (filled.filled > 0) change(filled.state);
    notifications.show({ message: filled.filled > 0 ? t('comments.filled', { count: filled.filled }) : t('comments.filledNone') });
  };

  /**
   * Sends the unsaved comments with the versions they were typed over: a dropped connection is
   * tried again (after it is back), and a repeat changes nothing on the server (a comment sent
   * as it is stored is unchanged).
   */
  const save = async () => {
    if (saving.kind !== 'idle') return;
    const wrong = Object.keys(errors).length;
    if (wrong > 0) {
      setWrongCount(wrong);
      return;
    }
    const body = saveBody(stateRef.current);
    if (Object.keys(body.comment).length === 0) {
      notifications.show({ message: t('comments.nothingToSave') });
      return;
    }
    const target = {
      form: query.form,
      stream: query.stream,
      term: query.term,
      year: query.year,
      category: query.category,
      subject_id: query.subject_id,
    };
    try {
      const saved: MarkCommentsSaved = await sendUntilAnswered(
        () => {
          setSaving({ kind: 'saving' });
          return call(SAVE_ENDPOINTS[kind], { body: { ...target, ...body } });
        },
        (waiting) => setSaving({ kind: 'waiting', ...waiting }),
      );
      change(applySaved(stateRef.current, body.comment, saved));
      setSavedIds((now) => new Set([...now, ...Object.keys(body.comment)]));
      setConflicts([]);
      setRefused({});
      setSaving({ kind: 'idle' });
      notifications.show({ color: 'green', message: translateMessage(saved.message) });
    } catch (error) {
      setSaving({ kind: 'idle' });
      if (error instanceof ApiError && error.status === 409) {
        setConflicts((error.data as { conflicts?: CommentConflict[] } | undefined)?.conflicts ?? []);
        return;
      }
      const named = error instanceof ApiError ? error.data?.errors : undefined;
      if (named) {
        // A comment the server refused is named beside its learner.
        setRefused(
          Object.fromEntries(
            Object.entries(named)
              .filter(([field]) => field.startsWith('comment.'))
              .map(([field, texts]) => [field.slice('comment.'.length).split('.')[0] ?? '', translateMessage(texts[0] ?? '')]),
          ),
        );
      }
      const message = error instanceof ApiError && error.status === 403 ? translateMessage(error.data?.message ?? '') : errorText(error);
      notifications.show({ color: 'red', message });
    }
  };

  const keep = (conflict: CommentConflict, which: 'theirs' | 'mine') => {
    change(resolveConflict(stateRef.current, conflict, which));
    setConflicts((all) => all.filter((other) => other !== conflict));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    }
  };

  const warningText = (warning: CommentWarning) =>
    warning.kind === 'otherLearner'
      ? t('comments.warnOtherLearner', { name: warning.name })
      : t('comments.warnPronouns', { words: warning.words.join(', ') });

  const conflicted = new Set(conflicts.map((conflict) => conflict.student_id));

  return (
    <Stack data-testid="comments-sheet">
      {found && (
        <DraftFound
          title={t('comments.draftTitle')}
          text={t('comments.draftText', { count: Object.keys(found.typed).length, when: new Date(found.at).toLocaleString('en-US') })}
          onRestore={restore}
          onDiscard={discard}
        />
      )}
      <ConflictsAlert
        title={translateMessage(COMMENT_MESSAGES.conflict)}
        conflicts={conflicts}
        keyOf={(conflict) => conflict.student_id}
        nameOf={(conflict) => conflict.fullname}
        lineOf={(conflict) =>
          t('comments.conflictLine', {
            learner: conflict.fullname,
            theirs: conflict.theirs ?? t('comments.empty'),
            by: conflict.by ?? t('comments.someone'),
            yours: conflict.yours ?? t('comments.empty'),
          })
        }
        keep={keep}
      />
      <Group justify="space-between">
        <SaveStatus unsaved={unsaved.size} saving={saving} kept={kept} offlineText={t('comments.offlineRetry')} />
        <Group gap="xs">
          <Button variant="default" onClick={fill} data-testid="fill-empty">
            {t('comments.fill')}
          </Button>
          <Button onClick={() => void save()} loading={saving.kind !== 'idle'} data-testid="save-comments">
            {t('comments.save')}
          </Button>
        </Group>
      </Group>
      <Text size="xs" c="dimmed">
        {t('comments.keysHint')}
      </Text>
      {wrongCount !== null && (
        <Alert color="red" data-testid="wrong-comments">
          {t('comments.wrongComments', { count: wrongCount })}
        </Alert>
      )}
      {answer.students.length === 0 ? (
        <EmptyNotice text={t('comments.noLearners')} to={PAGES.students.path} link={t('empty.addLearners')} testId="no-learners" />
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table withTableBorder withColumnBorders aria-label={t(`${words}.tableLabel`)}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields.studentid')}</Table.Th>
                <Table.Th className="mustard-sheet-name">{t('fields.fullname')}</Table.Th>
                {competencies?.map((topic) => (
                  <Table.Th key={topic.id} ta="center" data-competency={topic.title}>
                    {topic.title}
                  </Table.Th>
                ))}
                {answer.marktypes.map((type) => (
                  <Table.Th key={type.id} ta="center">
                    {type.label}
                  </Table.Th>
                ))}
                {papers.map((paper) => (
                  <Table.Th key={paper} ta="center" data-paper={paper}>
                    {t('comments.paper', { paper })}
                  </Table.Th>
                ))}
                {competencies ? (
                  <Table.Th ta="center">{t('comments.subjectScore')}</Table.Th>
                ) : (
                  <>
                    <Table.Th ta="center">{t('comments.total')}</Table.Th>
                    <Table.Th ta="center">{t('comments.grade')}</Table.Th>
                  </>
                )}
                <Table.Th miw={280}>{t(`${words}.column`)}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {answer.students.map((student, index) => {
                const record = records.get(student.id);
                const error = errors[student.id] ?? refused[student.id];
                const warned = warnings[student.id] ?? [];
                return (
                  <Table.Tr
                    key={student.id}
                    data-learner={student.fullname}
                    bg={error || conflicted.has(student.id) ? 'red.0' : unsaved.has(student.id) ? 'yellow.0' : undefined}
                  >
                    <Table.Td>{student.studentid}</Table.Td>
                    <Table.Td className="mustard-sheet-name">{student.fullname}</Table.Td>
                    {competencies?.map((topic) => (
                      <NcScoreCell key={topic.id} score={record?.competencies?.[topic.id]} testId="competency-score" />
                    ))}
                    {answer.marktypes.map((type) => (
                      <Table.Td key={type.id} ta="center" data-mark={type.label}>
                        {formatMark(record?.marks[type.label] ?? null)}
                      </Table.Td>
                    ))}
                    {papers.map((paper) => {
                      const result = record?.papers?.find((each) => each.paper === paper);
                      return (
                        <Table.Td key={paper} ta="center" data-paper={paper}>
                          {result?.mark ?? ''}
                          {result?.grade && (
                            <Text span size="xs" c="dimmed" ml={4}>
                              {result.grade}
                            </Text>
                          )}
                        </Table.Td>
                      );
                    })}
                    {competencies ? (
                      <NcScoreCell
                        score={record ? { score: record.score ?? null, identifier: record.identifier ?? null } : undefined}
                        testId="subject-score"
                      />
                    ) : (
                      <>
                        <Table.Td ta="center" data-total>
                          {record?.total ?? ''}
                        </Table.Td>
                        <Table.Td ta="center" data-grade>
                          {record?.grade ?? ''}
                        </Table.Td>
                      </>
                    )}
                    <Table.Td>
                      <Textarea
                        value={commentText(state, student.id)}
                        onChange={(event) => change(typeComment(stateRef.current, student.id, event.currentTarget.value))}
                        onKeyDown={onKeyDown}
                        autosize
                        minRows={perPaper ? 2 : 1}
                        maxRows={6}
                        aria-label={t('comments.commentOf', { column: t(`${words}.column`), learner: student.fullname })}
                        aria-invalid={error ? true : undefined}
                        data-comment={index}
                        data-unsaved={unsaved.has(student.id) ? 'yes' : undefined}
                        error={error ? translateMessage(error) : undefined}
                      />
                      {savedIds.has(student.id) && !unsaved.has(student.id) && <SavedTick />}
                      {warned.map((warning) => (
                        <Text key={warning.kind} size="xs" c="orange.8" data-testid="comment-warning">
                          {warningText(warning)}
                        </Text>
                      ))}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
