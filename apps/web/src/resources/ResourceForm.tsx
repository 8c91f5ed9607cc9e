import { Button, Group, SimpleGrid, Stack } from '@mantine/core';
import { decimalsOf, formatAmount } from '@mustard/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useSchemaForm } from '../lib/forms.js';
import { notifyError } from '../lib/notify.js';
import { type FormBody, type ResourceCalls, resourceCalls } from '../lib/resource-calls.js';
import { FieldInput } from './FieldInput.js';
import type { FieldSpec, ScreenDefinition } from './screen.js';

/** A file sent beside the fields (a photo, a filled sheet): not of the input schema, the form goes as multipart. */
const isFile = (spec: FieldSpec) => spec.kind === 'photo' || spec.kind === 'sheet';

function blank(spec: FieldSpec): unknown {
  if (spec.kind === 'switch') return false;
  if (spec.kind === 'multiselect') return [];
  if (spec.kind === 'select' || isFile(spec)) return null;
  return '';
}

/** A field the input schema refuses to leave out. */
export function isRequired(schema: z.ZodObject, name: string): boolean {
  const field = schema.shape[name] as z.ZodType | undefined;
  return field ? !field.safeParse(undefined).success : false;
}

/**
 * The form of a screen's record: the shared input schema checks it before it is sent (the same
 * rules the server applies) and the server's 422 lands beside the fields. A record with an id
 * is updated (PUT), one without is created (POST); the answer is the saved record.
 */
export function ResourceForm<Row extends { id: string }>({
  screen,
  record,
  defaults,
  onSaved,
  onCancel,
}: {
  screen: ScreenDefinition<Row>;
  record: Row | null;
  defaults?: Record<string, unknown>;
  /** The record as updated, or what a create answered. */
  onSaved(answer: { updated: Row } | { created: unknown }): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const { resource } = screen;
  // An update may take less than a create (a member's roles only): its form shows only those fields.
  const input = (record && resource.updateInput) || resource.input;
  const fields = screen.fields.filter((spec) => isFile(spec) || spec.name in input.shape);
  const stored = record as Record<string, unknown> | null;
  const initial = Object.fromEntries(
    fields.map((spec) => {
      const value = stored ? (spec.fromRecord?.(stored) ?? stored[spec.name]) : { ...screen.defaults, ...defaults }[spec.name];
      // An amount is shown as the lists show it ("12,500"): the input schema reads the commas back.
      if (spec.kind === 'amount' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
        return [spec.name, formatAmount(value, decimalsOf(value))];
      return [spec.name, value === undefined || (value === null && spec.kind !== 'select') ? blank(spec) : value];
    }),
  );
  // A photo or a sheet travels beside the fields; the fields' own schema knows nothing of it.
  const fileFields = fields.filter(isFile).map((spec) => spec.name);
  const schema = fileFields.length ? input.extend(Object.fromEntries(fileFields.map((name) => [name, z.any()]))) : input;
  const { form, field, showServerErrors } = useSchemaForm<Record<string, unknown>>(schema, initial);
  const [busy, setBusy] = useState(false);
  // Fields that follow others (`follow`) until the person chooses their value; a new record's only.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const following = record ? [] : fields.filter((spec) => spec.follow && !chosen.has(spec.name));
  useEffect(() => {
    for (const spec of following) {
      const value = spec.follow?.(form.values);
      if (value !== undefined && value !== form.values[spec.name]) form.setFieldValue(spec.name, value);
    }
  });
  const propsOf = (spec: FieldSpec) => {
    const props = field(spec.name, { type: spec.kind === 'switch' ? 'checkbox' : 'input' });
    if (!spec.follow) return props;
    return {
      ...props,
      onChange: (value: unknown) => {
        setChosen((names) => new Set(names).add(spec.name));
        props.onChange(value);
      },
    };
  };

  // A form with a file is sent as multipart (spec §7: add and edit a learner with a photo).
  const body = (values: Record<string, unknown>): FormBody => {
    if (fileFields.length === 0) return values;
    const data = new FormData();
    for (const [name, value] of Object.entries(values)) {
      if (value instanceof File) data.set(name, value, value.name);
      else if (value !== null && value !== undefined && !fileFields.includes(name)) data.set(name, String(value));
    }
    return data;
  };

  const save = form.onSubmit(async (shown) => {
    // A field its `when` hides sends the value it stands for while hidden, where the screen names one.
    const hidden = fields.filter((spec) => spec.when && !spec.when(shown) && 'hiddenValue' in spec);
    const values = { ...shown, ...Object.fromEntries(hidden.map((spec) => [spec.name, spec.hiddenValue])) };
    setBusy(true);
    try {
      const calls = screen.calls ?? (resourceCalls(resource) as ResourceCalls<Row>);
      if (record) {
        const updated = await calls.update?.(record.id, body(values));
        if (updated) onSaved({ updated });
      } else onSaved({ created: await calls.create?.(body(values)) });
    } catch (error) {
      if (!showServerErrors(error)) notifyError(error);
    } finally {
      setBusy(false);
    }
  });

  const visible = fields.filter((spec) => !spec.when || spec.when(form.values));
  return (
    <form onSubmit={save} noValidate data-testid="resource-form">
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: visible.length > 4 ? 2 : 1 }}>
          {visible.map((spec) => (
            <FieldInput key={spec.name} spec={spec} props={propsOf(spec)} required={isRequired(input, spec.name)} />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('list.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {record ? t('list.update') : t('list.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
