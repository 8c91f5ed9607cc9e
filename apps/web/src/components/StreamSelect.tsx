import { Select } from '@mantine/core';
import { classStreamsEndpoint } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../lib/api.js';
import { useAuth } from '../lib/auth.js';
import { same, streamChoices, type TaughtStream } from './stream-choices.js';

export type { TaughtStream };

/**
 * The Stream of a class sheet's filter (issue 23 item 18): chosen from the class's streams, as
 * its learners are in them, not typed (a typo opened an empty class); a teacher limited to his
 * assignments is offered his own streams. Left empty it is every stream: of the class, or every
 * one the teacher teaches there. A stream the class does not have (the class changed) is let go.
 */
export function StreamSelect({
  form,
  value,
  onChange,
  error,
  taught = null,
}: {
  form: string | null;
  value: string;
  onChange: (stream: string) => void;
  error?: string | undefined;
  /** Where a limited member may enter; null for every stream of the school. */
  taught?: readonly TaughtStream[] | null;
}) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const classes = useQuery({
    queryKey: ['class-streams', session?.tenant?.id],
    queryFn: () => call(classStreamsEndpoint, {}),
    staleTime: 60_000,
  });
  const choices = useMemo(() => streamChoices(classes.data?.classes ?? [], form, taught), [classes.data, form, taught]);
  const loaded = classes.data !== undefined;
  const chosen = choices.find((stream) => same(stream, value)) ?? null;
  useEffect(() => {
    if (loaded && value !== '' && chosen === null) onChange('');
  }, [loaded, value, chosen, onChange]);
  return (
    <Select
      label={t('fields.stream')}
      data={choices}
      value={chosen}
      onChange={(stream) => onChange(stream ?? '')}
      error={error}
      placeholder={t('sheet.allStreams')}
      clearable
      searchable
      nothingFoundMessage={t('list.nothingFound')}
    />
  );
}
