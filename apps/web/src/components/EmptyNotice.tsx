import { Alert, Anchor, Text } from '@mantine/core';
import { subjects } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, withQuery } from '../lib/api.js';
import { useAuth } from '../lib/auth.js';

/**
 * An empty screen that says what is missing and links to where it is added (issue 24 point 6):
 * "This school has no subjects yet … Add the subjects".
 */
export function EmptyNotice({ text, to, link, testId }: { text: string; to: string; link: string; testId: string }) {
  return (
    <Alert color="yellow" data-testid={testId}>
      <Text size="sm">
        {text}{' '}
        <Anchor component={Link} to={to} size="sm">
          {link}
        </Anchor>
      </Text>
    </Alert>
  );
}

/**
 * True once the school's subjects have been read (the query `useChoices` makes for a subject
 * select, shared through its key), so "no subjects" is not said while they are still loading.
 */
export function useSubjectsKnown(): boolean {
  const { session } = useAuth();
  const records = useQuery({
    queryKey: ['choices', subjects.name, session?.tenant?.id],
    queryFn: async () => (await api.get<Record<string, unknown>>(withQuery(subjects.path, { per_page: 1000 }))).data,
    staleTime: 60_000,
  });
  return records.isSuccess;
}
