import { Alert, Button, Group, Text } from '@mantine/core';
import { COMPETENCY_HIGHEST, topics } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { PAGES, pathTo, type RouteDefinition } from '../../lib/pages.js';
import { resourceCalls } from '../../lib/resource-calls.js';

/*
 * The marks pages opened for a competency (`?topic_id=`, spec §2 "Create marks", "Marks view",
 * "Delete marks"): the competency's class, term and subject fill the filter, and its scores are
 * the marks that carry its id. A banner names the competency, says the scale, and leads back to
 * the page without it.
 */

export type Competency = z.output<typeof topics.record>;

/** The competency the page's `?topic_id=` names: none without it; loading, or gone (404), with it. */
export function useLinkedCompetency() {
  const [params] = useSearchParams();
  const topicId = params.get('topic_id');
  const topic = useQuery({
    queryKey: ['record', topics.name, topicId],
    queryFn: () => resourceCalls(topics).read(topicId ?? '') as Promise<Competency>,
    enabled: Boolean(topicId),
    meta: { ownsNotFound: true },
  });
  return {
    topicId,
    topic: topic.data ?? null,
    /** The page waits for the competency before it fills its filter. */
    waiting: Boolean(topicId) && topic.isPending,
    failed: Boolean(topicId) && topic.isError,
  };
}

/** Names the competency whose scores the page shows, enters or deletes; offers the page without it. */
export function CompetencyBanner({
  topic,
  failed,
  page,
  scale = false,
}: {
  topic: Competency | null;
  failed: boolean;
  page: RouteDefinition;
  /** Say the identifier scale (where scores are entered). */
  scale?: boolean;
}) {
  const { t } = useTranslation();
  if (!topic && !failed) return null;
  return (
    <Alert color={failed ? 'red' : 'blue'} data-testid="competency-banner">
      <Group justify="space-between" wrap="wrap">
        <div>
          {topic ? (
            <>
              <Text fw={600}>
                {t('curriculum.competencyOf', {
                  title: topic.title,
                  subject: topic.subject?.name ?? '',
                  form: topic.form,
                  term: topic.term,
                })}
              </Text>
              {scale && <Text size="sm">{t('curriculum.scaleHint', { highest: COMPETENCY_HIGHEST })}</Text>}
            </>
          ) : (
            <Text>{t('curriculum.competencyNotFound')}</Text>
          )}
        </div>
        <Group gap="xs">
          {topic && (
            <Button variant="subtle" size="xs" component={Link} to={pathTo(PAGES.competencyDetail, { id: topic.id })}>
              {t('curriculum.details')}
            </Button>
          )}
          <Button variant="default" size="xs" component={Link} to={page.path}>
            {t('curriculum.withoutCompetency')}
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}
