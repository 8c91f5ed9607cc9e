import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { Key } from 'react';
import { useTranslation } from 'react-i18next';
import type { Waiting } from './drafts.js';

/*
 * What every page where a teacher types and saves shows the same way (the marks grid, subject
 * comments, report comments): the draft found from before, the conflicts with someone else's
 * changes, and where the typing stands (unsaved, waiting for the connection, not kept).
 */

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | ({ kind: 'waiting' } & Waiting);

/** A draft found from before (a reload, a crash, another day): offered, not forced. */
export function DraftFound({
  title,
  text,
  onRestore,
  onDiscard,
}: {
  title: string;
  text: string;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={title} data-testid="draft-found">
      <Stack gap="xs">
        <Text size="sm">{text}</Text>
        <Group>
          <Button size="xs" onClick={onRestore}>
            {t('typing.restore')}
          </Button>
          <Button size="xs" variant="default" onClick={onDiscard}>
            {t('typing.discard')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** What someone else changed since the page loaded it: both versions, and the teacher keeps either. */
export function ConflictsAlert<Conflict>({
  title,
  conflicts,
  keyOf,
  nameOf,
  lineOf,
  keep,
}: {
  title: string;
  conflicts: readonly Conflict[];
  keyOf: (conflict: Conflict) => Key;
  /** The learner it is about (the `data-conflict` a test or a screen reader finds it by). */
  nameOf: (conflict: Conflict) => string | undefined;
  lineOf: (conflict: Conflict) => string;
  keep: (conflict: Conflict, which: 'theirs' | 'mine') => void;
}) {
  const { t } = useTranslation();
  if (conflicts.length === 0) return null;
  return (
    <Alert color="red" title={title} data-testid="conflicts">
      <Stack gap="xs">
        {conflicts.map((conflict) => (
          <Group key={keyOf(conflict)} justify="space-between" data-conflict={nameOf(conflict)}>
            <Text size="sm">{lineOf(conflict)}</Text>
            <Group gap="xs">
              <Button size="xs" variant="default" onClick={() => keep(conflict, 'theirs')}>
                {t('typing.keepTheirs')}
              </Button>
              <Button size="xs" onClick={() => keep(conflict, 'mine')}>
                {t('typing.keepMine')}
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}

/** How many changes are unsaved, a save waiting for an answer or the connection, and a browser that keeps no drafts. */
export function SaveStatus({
  unsaved,
  saving,
  kept,
  offlineText,
}: {
  unsaved: number;
  saving: SaveState;
  kept: boolean;
  offlineText: string;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Badge color={unsaved > 0 ? 'yellow' : 'gray'} variant="light" data-testid="unsaved-count">
        {t('typing.unsaved', { count: unsaved })}
      </Badge>
      {saving.kind === 'waiting' && (
        <Badge color="orange" variant="light" data-testid="save-waiting">
          {saving.offline ? offlineText : t('typing.retrying')}
        </Badge>
      )}
      {!kept && (
        <Badge color="red" variant="light">
          {t('typing.notKept')}
        </Badge>
      )}
    </Group>
  );
}

/** The green Saved marker under an input whose text is now stored (spec §4). */
export function SavedTick() {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="green" data-testid="saved-tick">
      <IconCheck size={12} /> {t('typing.saved')}
    </Text>
  );
}
