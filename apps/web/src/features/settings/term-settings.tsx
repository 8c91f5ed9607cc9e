import { Button, Checkbox, Group, NumberInput, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  APPLY_TO,
  ApplyProportionSchema,
  applyProportionEndpoint,
  CopyTermSettingsSchema,
  copyTermSettingsEndpoint,
  firstErrors,
  markTypes,
  subjects,
  TERMS,
  type Term,
} from '@mustard/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../lib/api.js';
import { useCurrentTerm } from '../../lib/calendar.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError } from '../../lib/notify.js';
import { useChoices } from '../../resources/choices.js';

/*
 * A term's grade sets and proportions in bulk (issue 24): "Copy from Term II" on the grade sets
 * and proportions screens, and one proportion applied to every class or subject at once. The
 * grade set page applies a set the same way (grades.tsx).
 */

/** The term before `term` of `year`: Term III of the year before for Term I. */
export function previousTerm(term: Term, year: number): { term: Term; year: number } {
  const index = TERMS.indexOf(term);
  return index === 0 ? { term: 'III', year: year - 1 } : { term: TERMS[index - 1] as Term, year };
}

/** A 422's field messages, translated, for the fields of a dialog; false for any other error. */
function fieldErrors(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.status !== 422 || !error.data?.errors) return null;
  return Object.fromEntries(Object.entries(error.data.errors).map(([field, messages]) => [field, messages[0] ?? '']));
}

/**
 * Copies the grade sets and proportions of a term (the one before the current, unless chosen) to
 * the current term, never over what that term has; the button names the source term.
 */
export function CopyTermDialog({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useCurrentTerm();
  const [to, setTo] = useState({ term: current.term, year: current.year });
  const [from, setFrom] = useState(previousTerm(current.term, current.year));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const known = !current.pending;
  useEffect(() => {
    if (!known) return;
    setTo({ term: current.term, year: current.year });
    setFrom(previousTerm(current.term, current.year));
  }, [known, current.term, current.year]);

  const copy = async () => {
    const checked = CopyTermSettingsSchema.safeParse({ from_term: from.term, from_year: from.year, term: to.term, year: to.year });
    if (!checked.success) {
      setErrors(firstErrors(checked.error));
      return;
    }
    setBusy(true);
    try {
      const answer = await call(copyTermSettingsEndpoint, { body: checked.data });
      notifications.show({
        color: 'green',
        message: t('termCopy.done', {
          grades: answer.grades.copied,
          gradesSkipped: answer.grades.skipped,
          proportions: answer.proportions.copied,
          proportionsSkipped: answer.proportions.skipped,
        }),
      });
      await queryClient.invalidateQueries({ queryKey: ['resource'] });
      onDone();
    } catch (error) {
      const fields = fieldErrors(error);
      if (fields) setErrors(fields);
      else notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  const error = (field: string) => (errors[field] ? translateMessage(errors[field]) : undefined);
  const termChoices = TERMS.map((term) => ({ value: term, label: t('termCopy.term', { term }) }));
  return (
    <Stack data-testid="copy-term">
      <Text size="sm">{t('termCopy.intro')}</Text>
      <SimpleGrid cols={2}>
        <Select
          label={t('termCopy.fromTerm')}
          data={termChoices}
          value={from.term}
          allowDeselect={false}
          onChange={(term) => term && setFrom((old) => ({ ...old, term: term as Term }))}
          error={error('from_term')}
        />
        <NumberInput
          label={t('termCopy.fromYear')}
          value={from.year}
          onChange={(year) => setFrom((old) => ({ ...old, year: Number(year) }))}
          error={error('from_year')}
        />
        <Select
          label={t('termCopy.toTerm')}
          data={termChoices}
          value={to.term}
          allowDeselect={false}
          onChange={(term) => term && setTo((old) => ({ ...old, term: term as Term }))}
          error={error('term')}
        />
        <NumberInput
          label={t('termCopy.toYear')}
          value={to.year}
          onChange={(year) => setTo((old) => ({ ...old, year: Number(year) }))}
          error={error('year')}
        />
      </SimpleGrid>
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('list.cancel')}
        </Button>
        <Button onClick={() => void copy()} loading={busy} disabled={!known}>
          {t('termCopy.button', { term: from.term })}
        </Button>
      </Group>
    </Stack>
  );
}

/** The header action of the grade sets and proportions screens. */
export const copyTermAction = {
  label: 'termCopy.menu',
  render: (close: () => void): ReactNode => <CopyTermDialog onDone={close} />,
  offerWhenEmpty: true,
};

/** Where a set or proportion goes: this class and subject alone, every class, or every subject. */
export function useApplyChoices() {
  const { t } = useTranslation();
  return [{ value: 'one', label: t('applyAll.one') }, ...APPLY_TO.map((to) => ({ value: to, label: t(`applyAll.${to}`) }))];
}

/** One proportion applied to every class (its subject) or every subject (its class), for a term and year. */
export function ApplyProportionDialog({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const current = useCurrentTerm();
  const classes = useChoices('classes');
  const subjectChoices = useChoices({ resource: subjects, label: 'name' });
  const markTypeChoices = useChoices({ resource: markTypes, label: 'label' });
  const applyChoices = useApplyChoices().filter((choice) => choice.value !== 'one');
  const [values, setValues] = useState<Record<string, unknown>>({
    form: null,
    term: current.term,
    year: current.year,
    subject_id: null,
    marktype_id: null,
    percentage: '',
    apply_to: 'classes',
    replace: false,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (field: string, value: unknown) => {
    setValues((old) => ({ ...old, [field]: value }));
    setErrors(({ [field]: _fixed, ...rest }) => rest);
  };

  const apply = async () => {
    const checked = ApplyProportionSchema.safeParse(values);
    if (!checked.success) {
      setErrors(firstErrors(checked.error));
      return;
    }
    setBusy(true);
    try {
      const answer = await call(applyProportionEndpoint, { body: checked.data });
      notifications.show({ color: 'green', message: t(`applyAll.proportionsDone.${checked.data.apply_to}`, answer) });
      onDone();
    } catch (error) {
      const fields = fieldErrors(error);
      if (fields) setErrors(fields);
      else notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  const error = (field: string) => (errors[field] ? translateMessage(errors[field]) : undefined);
  const text = (field: string) => (values[field] as string | null) ?? null;
  return (
    <Stack data-testid="apply-proportion">
      <SimpleGrid cols={2}>
        <Select
          label={t('applyAll.label')}
          data={applyChoices}
          value={text('apply_to')}
          allowDeselect={false}
          onChange={(value) => set('apply_to', value)}
          error={error('apply_to')}
        />
        <Select
          label={t('fields.form')}
          data={classes}
          value={text('form')}
          allowDeselect={false}
          onChange={(value) => set('form', value)}
          error={error('form')}
          withAsterisk
        />
        <Select
          label={t('fields.term')}
          data={[...TERMS]}
          value={text('term')}
          allowDeselect={false}
          onChange={(value) => set('term', value)}
          error={error('term')}
          withAsterisk
        />
        <NumberInput
          label={t('fields.year')}
          value={values.year as number}
          onChange={(value) => set('year', value)}
          error={error('year')}
          withAsterisk
        />
        <Select
          label={t('fields.subject_id')}
          data={subjectChoices}
          value={text('subject_id')}
          searchable
          allowDeselect={false}
          onChange={(value) => set('subject_id', value)}
          error={error('subject_id')}
          withAsterisk
        />
        <Select
          label={t('fields.marktype_id')}
          data={markTypeChoices}
          value={text('marktype_id')}
          allowDeselect={false}
          onChange={(value) => set('marktype_id', value)}
          error={error('marktype_id')}
          withAsterisk
        />
        <NumberInput
          label={t('fields.percentage')}
          value={values.percentage as number | string}
          min={0}
          max={100}
          onChange={(value) => set('percentage', value)}
          error={error('percentage')}
          withAsterisk
        />
      </SimpleGrid>
      <Checkbox
        label={t('applyAll.replace')}
        checked={values.replace === true}
        onChange={(event) => set('replace', event.currentTarget.checked)}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('list.cancel')}
        </Button>
        <Button onClick={() => void apply()} loading={busy}>
          {t('applyAll.button')}
        </Button>
      </Group>
    </Stack>
  );
}

export const applyProportionAction = {
  label: 'applyAll.proportionMenu',
  render: (close: () => void): ReactNode => <ApplyProportionDialog onDone={close} />,
};
