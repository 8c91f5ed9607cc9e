import { Alert, Anchor, Text } from '@mantine/core';
import { type ResourceDefinition, subjects } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useAuth } from '../lib/auth.js';
import { allRecords, choicesKey } from '../lib/resource-calls.js';

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
 * True once the school's records of a kind have been read (the query `useChoices` makes for a
 * select of them, shared through its key), so "none yet" is not said while they are loading.
 */
export function useChoicesKnown(resource: ResourceDefinition): boolean {
  const { session } = useAuth();
  const records = useQuery({
    queryKey: choicesKey(resource, session?.tenant?.id),
    queryFn: () => allRecords(resource),
    staleTime: 60_000,
  });
  return records.isSuccess;
}

/** `useChoicesKnown` of the school's subjects. */
export const useSubjectsKnown = (): boolean => useChoicesKnown(subjects);
