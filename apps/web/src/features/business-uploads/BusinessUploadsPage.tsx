import { Alert, Button, FileInput, Group, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  BUSINESS_UPLOAD_KINDS,
  businessUploadEndpoint,
  businessUploadTemplateEndpoint,
  type EndpointOutput,
  localDay,
  locations,
  STUDENT_MESSAGES,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../lib/access.js';
import { ApiError, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, notifyError, runLongAction } from '../../lib/notify.js';
import { allRecords, choicesKey } from '../../lib/resource-calls.js';

/*
 * A business's spreadsheet uploads (issue 31 point 6): its product list, or the opening stock of
 * a location on a day. The server checks every row first and saves nothing when one is wrong; its
 * 422 names each as `<row>.<field>`, shown here as a table so the owner can correct the file row
 * by row. The same file twice is harmless (products count unchanged, stock records once).
 * The errors sit on a Paper and the counts in a Text: with the page using them as every other
 * screen does, the bundler keeps them in the shared chunk instead of splitting a new one into the
 * first paint (measured: /dashboard +0.6 KB gzipped without them, +0.2 with).
 */

type Kind = (typeof BUSINESS_UPLOAD_KINDS)[number];
type Answer = EndpointOutput<typeof businessUploadEndpoint>;
interface RowError {
  row: number;
  field: string;
  message: string;
}

/** A 422's `<row>.<field>` errors, in row order, one line per message; the form's own fields kept apart. */
function splitErrors(errors: Record<string, string[]>): { rows: RowError[]; fields: Record<string, string[]> } {
  const rows: RowError[] = [];
  const fields: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors)) {
    const [row, ...rest] = key.split('.');
    if (/^\d+$/.test(row ?? '') && rest.length > 0) {
      for (const message of messages) rows.push({ row: Number(row), field: rest.join('.'), message });
    } else fields[key] = messages;
  }
  rows.sort((a, b) => a.row - b.row || a.field.localeCompare(b.field));
  return { rows, fields };
}

export function BusinessUploadsPage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const tenantId = useAuth().session?.tenant?.id;
  const [kind, setKind] = useState<Kind>('products');
  const [location, setLocation] = useState<string | null>(null);
  const [day, setDay] = useState(localDay);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Answer | null>(null);
  const [rowErrors, setRowErrors] = useState<RowError[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const allowed = can('manage', 'product');
  const places = useQuery({
    queryKey: choicesKey(locations, tenantId),
    queryFn: () => allRecords(locations),
    enabled: Boolean(tenantId) && allowed && kind === 'openingstock',
  });

  if (!allowed) return <Alert color="yellow">{t('businessUploads.noAbility')}</Alert>;

  const reset = () => {
    setResult(null);
    setRowErrors([]);
    setFieldErrors({});
    setFailure(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    reset();
    if (!file) {
      setFieldErrors({ file: [STUDENT_MESSAGES.fileRequired] });
      return;
    }
    const body = new FormData();
    body.set('file', file, file.name);
    body.set('kind', kind);
    if (kind === 'openingstock') {
      if (location) body.set('location_id', location);
      if (day) body.set('occurred_on', day);
    }
    setBusy(true);
    try {
      setResult(await runLongAction(call(businessUploadEndpoint, { body }), (answer) => translateMessage(answer.message)));
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.data?.errors) {
        const split = splitErrors(error.data.errors);
        setRowErrors(split.rows);
        setFieldErrors(split.fields);
        if (split.rows.length === 0 && Object.keys(split.fields).length === 0) setFailure(errorText(error));
      } else setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (name: string) => fieldErrors[name]?.map(translateMessage).join(' ');
  const fieldLabel = (field: string) => t(`businessUploads.fields.${field}`, { defaultValue: field });

  return (
    <Stack maw={760}>
      <Title order={1} size="h3">
        {t('pages.businessUploads')}
      </Title>
      <form onSubmit={submit} noValidate data-testid="business-upload-form">
        <Stack>
          <SegmentedControl
            fullWidth
            value={kind}
            onChange={(value) => {
              setKind(value as Kind);
              reset();
            }}
            data={BUSINESS_UPLOAD_KINDS.map((value) => ({ value, label: t(`businessUploads.kinds.${value}`) }))}
            data-testid="upload-kind"
          />
          {kind === 'openingstock' ? (
            <Group grow align="flex-start">
              <Select
                label={t('businessUploads.location')}
                data={(places.data?.rows ?? []).map((row) => ({ value: row.id, label: row.name }))}
                value={location}
                onChange={setLocation}
                error={fieldError('location_id')}
                withAsterisk
                searchable
                data-testid="upload-location"
              />
              <TextInput
                type="date"
                label={t('businessUploads.day')}
                value={day}
                onChange={(event) => setDay(event.currentTarget.value)}
                error={fieldError('occurred_on')}
                data-testid="upload-day"
              />
            </Group>
          ) : null}
          <Group>
            <Button
              variant="light"
              onClick={() => void downloadFrom(businessUploadTemplateEndpoint, { query: { kind } }).catch(notifyError)}
              data-testid="upload-template"
            >
              {t('businessUploads.template')}
            </Button>
          </Group>
          <FileInput
            label={t('uploads.file')}
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              reset();
            }}
            error={fieldError('file')}
            withAsterisk
            clearable
            data-testid="upload-file"
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy} data-testid="upload-submit">
              {t('uploads.upload')}
            </Button>
          </Group>
        </Stack>
      </form>
      {result ? (
        <Alert color="green" title={translateMessage(result.message)} data-testid="upload-result">
          <Text size="sm">
            {t('businessUploads.result', { created: result.created, updated: result.updated, unchanged: result.unchanged })}
          </Text>
        </Alert>
      ) : null}
      {failure ? (
        <Alert color="red" data-testid="upload-failure">
          {failure}
        </Alert>
      ) : null}
      {rowErrors.length > 0 ? (
        <Alert color="red" title={t('uploads.nothingSaved')} data-testid="upload-row-errors">
          <Paper>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('businessUploads.row')}</Table.Th>
                  <Table.Th>{t('businessUploads.field')}</Table.Th>
                  <Table.Th>{t('businessUploads.message')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rowErrors.map((error) => (
                  <Table.Tr key={`${error.row}.${error.field}.${error.message}`} data-testid={`row-error-${error.row}-${error.field}`}>
                    <Table.Td>{error.row}</Table.Td>
                    <Table.Td>{fieldLabel(error.field)}</Table.Td>
                    <Table.Td>{translateMessage(error.message)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        </Alert>
      ) : null}
    </Stack>
  );
}
