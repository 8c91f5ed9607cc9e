import { FileInput, MultiSelect, NumberInput, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useChoices } from './choices.js';
import type { FieldSpec } from './screen.js';

type InputProps = Record<string, unknown> & { value?: unknown; onChange?: (value: unknown) => void; error?: unknown };

/** One input of a form or a filter bar, by its kind; labelled `fields.<name>`. */
export function FieldInput({ spec, props: given, required = false }: { spec: FieldSpec; props: object; required?: boolean }) {
  const props = given as InputProps;
  const { t } = useTranslation();
  const choices = useChoices(spec.choices);
  const label = t(spec.label ?? `fields.${spec.name}`);
  const common = {
    label,
    description: spec.description ? t(spec.description) : undefined,
    withAsterisk: required,
    'data-field': spec.name,
  };
  switch (spec.kind) {
    case 'select':
      return (
        <Select
          {...common}
          {...(props as object)}
          value={(props.value as string | null | undefined) || null}
          data={choices}
          searchable={choices.length > 8}
          clearable={!required}
          // Choosing the chosen option again keeps it; clearing is the clear button's job.
          allowDeselect={false}
          nothingFoundMessage={t('list.nothingFound')}
        />
      );
    case 'multiselect':
      return (
        <MultiSelect
          {...common}
          {...(props as object)}
          value={(props.value as string[] | null | undefined) ?? []}
          data={choices}
          searchable={choices.length > 8}
          nothingFoundMessage={t('list.nothingFound')}
        />
      );
    case 'switch':
      return <Switch {...common} {...(props as object)} mt="xs" />;
    case 'number':
    case 'year':
      return (
        <NumberInput
          {...common}
          {...(props as object)}
          allowDecimal={spec.kind === 'number'}
          thousandSeparator={spec.kind === 'number' ? ',' : undefined}
        />
      );
    case 'amount':
      // Exact decimal text: a float input would round 0.1 + 0.2 and drop what the person typed; phones show digits.
      return <TextInput {...common} {...(props as object)} inputMode="decimal" autoComplete="off" />;
    case 'date':
      return <TextInput {...common} {...(props as object)} type="date" />;
    case 'photo':
      return (
        <FileInput
          {...common}
          {...(props as object)}
          accept="image/jpeg,image/png,image/webp"
          clearable
          placeholder={t('list.choosePhoto')}
        />
      );
    case 'sheet':
      return <FileInput {...common} {...(props as object)} accept=".xlsx" clearable placeholder={t('marks.chooseFile')} />;
    case 'textarea':
      return <Textarea {...common} {...(props as object)} autosize minRows={2} />;
    default:
      return <TextInput {...common} {...(props as object)} />;
  }
}
