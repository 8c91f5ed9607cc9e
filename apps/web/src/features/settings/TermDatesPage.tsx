import { Alert, Badge, Button, Card, Fieldset, Group, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  firstErrors,
  localDay,
  RESULT_MESSAGES,
  SETTINGS_MESSAGES,
  saveTermDatesEndpoint,
  type TermDates,
  TermDatesInputSchema,
} from '@mustard/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/PageLoading.js';
import { useAccess } from '../../lib/access.js';
import { call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { useTermDates } from '../../lib/calendar.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError } from '../../lib/notify.js';

/**
 * The school's calendar (issue 10 point 13): the first and last day of each term of a year.
 * Until the school sets them, a year has the Ugandan defaults; the current term they give is
 * the default of every term and year filter in the product.
 */
export function TermDatesPage() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const queryClient = useQueryClient();
  const mayWrite = useAccess().can('update', 'setting');
  const [year, setYear] = useState(() => Number(localDay().slice(0, 4)));
  const validYear = Number.isInteger(year) && year >= 2000 && year <= 2100;
  const saved = useTermDates(year);
  const [terms, setTerms] = useState<TermDates[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setTerms(saved.data?.terms ?? null);
    setErrors({});
  }, [saved.data]);

  const change = (index: number, patch: Partial<TermDates>) =>
    setTerms((all) => all?.map((term, at) => (at === index ? { ...term, ...patch } : term)) ?? null);

  const save = async () => {
    const checked = TermDatesInputSchema.safeParse({ year, terms });
    if (!checked.success) {
      setErrors(firstErrors(checked.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const data = await call(saveTermDatesEndpoint, { body: checked.data });
      queryClient.setQueryData(['termdates', session?.tenant?.id, year], data);
      notifications.show({ color: 'green', message: translateMessage(RESULT_MESSAGES.updated) });
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  const errorOf = (index: number, field: 'starts' | 'ends') => {
    const message = errors[`terms.${index}.${field}`];
    return message ? translateMessage(message) : undefined;
  };
  return (
    <Card withBorder padding="md" data-testid="term-dates">
      <Stack>
        <Group justify="space-between">
          <Title order={1} size="h3">
            {t('pages.termDates')}
          </Title>
          {saved.data && (
            <Badge variant="light" color={saved.data.custom ? 'green' : 'gray'} data-testid="term-dates-source">
              {t(saved.data.custom ? 'termDates.custom' : 'termDates.defaults')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('termDates.explain')}
        </Text>
        <NumberInput
          label={t('fields.year')}
          value={year}
          onChange={(value) => setYear(typeof value === 'number' ? value : Number.NaN)}
          min={2000}
          max={2100}
          allowDecimal={false}
          w={160}
          error={validYear ? undefined : translateMessage(SETTINGS_MESSAGES.yearInvalid)}
        />
        {!terms ? (
          <PageLoading />
        ) : (
          <Fieldset variant="unstyled" disabled={!mayWrite}>
            <Table withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('fields.term')}</Table.Th>
                  <Table.Th>{t('termDates.starts')}</Table.Th>
                  <Table.Th>{t('termDates.ends')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {terms.map((term, index) => (
                  <Table.Tr key={term.term} data-term={term.term}>
                    <Table.Td>{t('termDates.term', { term: term.term })}</Table.Td>
                    <Table.Td>
                      <TextInput
                        type="date"
                        aria-label={t('termDates.startsOf', { term: term.term })}
                        value={term.starts}
                        onChange={(event) => change(index, { starts: event.currentTarget.value })}
                        error={errorOf(index, 'starts')}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        type="date"
                        aria-label={t('termDates.endsOf', { term: term.term })}
                        value={term.ends}
                        onChange={(event) => change(index, { ends: event.currentTarget.value })}
                        error={errorOf(index, 'ends')}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Fieldset>
        )}
        {errors.year && <Alert color="red">{translateMessage(errors.year)}</Alert>}
        {mayWrite && terms && (
          <Group justify="flex-end">
            <Button onClick={() => void save()} loading={busy} disabled={!validYear}>
              {t('list.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
