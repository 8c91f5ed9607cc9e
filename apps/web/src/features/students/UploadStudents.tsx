import { Alert, Anchor, Badge, Button, Checkbox, FileInput, Group, List, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import {
  classOptions,
  type EndpointOutput,
  IGNORE_COLUMN,
  previewStudentUploadEndpoint,
  STUDENT_MESSAGES,
  STUDENT_UPLOAD_FIELDS,
  type StudentUploadPreview,
  type StudentUploadTarget,
  studentTemplateEndpoint,
  uploadStudentsEndpoint,
} from '@mustard/shared';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, runLongAction } from '../../lib/notify.js';

/** Problems shown at once; the rest behind "Show N more". */
const SHOWN_PROBLEMS = 50;

/** A 422's row problems ("14.firstname": [...]) as lines a bursar can act on, every one of them. */
export function rowProblems(error: unknown, t: TFunction): string[] {
  if (!(error instanceof ApiError) || error.status !== 422 || !error.data?.errors) return [];
  return Object.entries(error.data.errors).flatMap(([key, messages]) => {
    const [row, field] = key.split('.');
    const where = /^\d+$/.test(row ?? '')
      ? t('uploads.rowField', { row, field: field ? fieldLabel(field, t) : '' })
      : t(`fields.${key}`, { defaultValue: key });
    return messages.map((message) => `${where}: ${translateMessage(message)}`);
  });
}

/** A field's words: the upload's own where only learners have the field (their guardian's email), else the common ones. */
function fieldLabel(field: string, t: TFunction): string {
  return field === 'name' ? t('uploads.wholeName') : t([`uploads.fields.${field}`, `fields.${field}`], { defaultValue: field });
}

/** Every problem of an upload: the first ones, and a button for the rest. */
export function UploadProblems({ problems }: { problems: string[] }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  if (problems.length === 0) return null;
  const shown = all ? problems : problems.slice(0, SHOWN_PROBLEMS);
  return (
    <Alert color="red" title={t('uploads.nothingSaved')} data-testid="upload-problems">
      <List size="sm" spacing={2}>
        {shown.map((problem) => (
          <List.Item key={problem}>{problem}</List.Item>
        ))}
      </List>
      {!all && problems.length > SHOWN_PROBLEMS && (
        <Anchor component="button" type="button" size="sm" onClick={() => setAll(true)}>
          {t('uploads.showMore', { count: problems.length - SHOWN_PROBLEMS })}
        </Anchor>
      )}
    </Alert>
  );
}

type UploadAnswer = EndpointOutput<typeof uploadStudentsEndpoint>;

/** "Added 45 learners, changed 0." and the columns left out, if any. */
function summary(answer: UploadAnswer, t: TFunction): string {
  const counts = t('uploads.learnersCounts', { created: answer.created, updated: answer.updated });
  return answer.ignored.length > 0 ? `${counts} ${t('uploads.leftOut', { columns: answer.ignored.join(', ') })}` : counts;
}

/** The field each column fills, as the person sees it: '' when nothing is chosen yet (it is left out). */
type Choices = Record<string, StudentUploadTarget | ''>;

/**
 * Upload students (spec §2, issue 24 point 2): the template or the school's own register. The
 * file is previewed first; when every column is known (or the school mapped it before) and the
 * class is known, it imports at once; otherwise the person says which field each column fills
 * (or leaves it out), then imports. The mapping is remembered for the school by the server.
 */
export function UploadStudentsDialog({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const classes = classOptions(session?.tenant ?? {});
  const [file, setFile] = useState<File | null>(null);
  const [autoid, setAutoid] = useState(false);
  const [form, setForm] = useState<string | null>(null);
  const [stream, setStream] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [preview, setPreview] = useState<StudentUploadPreview | null>(null);
  const [choices, setChoices] = useState<Choices>({});

  const formData = (chosen: File, mapping?: Record<string, string>) => {
    const data = new FormData();
    data.set('file', chosen, chosen.name);
    data.set('autoid', autoid ? '1' : '0');
    if (form) data.set('form', form);
    if (stream.trim()) data.set('stream', stream.trim());
    if (mapping) data.set('mapping', JSON.stringify(mapping));
    return data;
  };

  const fail = (error: unknown) => {
    const rows = rowProblems(error, t);
    setProblems(rows.length > 0 ? rows : [errorText(error)]);
  };

  const runImport = async (chosen: File, mapping?: Record<string, string>) => {
    await runLongAction(call(uploadStudentsEndpoint, { body: formData(chosen, mapping) }), (answer) => summary(answer, t));
    onDone();
  };

  const next = async (event: FormEvent) => {
    event.preventDefault();
    setProblems([]);
    if (!file) {
      setFileError(translateMessage(STUDENT_MESSAGES.fileRequired));
      return;
    }
    setFileError(null);
    setBusy(true);
    try {
      const body = new FormData();
      body.set('file', file, file.name);
      const seen = await call(previewStudentUploadEndpoint, { body });
      if (!seen.needs_mapping && (seen.has_class || form)) {
        await runImport(file);
        return;
      }
      setChoices(Object.fromEntries(seen.columns.map((column) => [column.column, column.field ?? ''])));
      setPreview(seen);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    if (!file || !preview) return;
    setProblems([]);
    const filled = new Set(Object.values(choices));
    if (!preview.has_class && !filled.has('form') && !form) {
      setFormError(translateMessage(STUDENT_MESSAGES.classRequired));
      return;
    }
    setFormError(null);
    // What the person said of the columns nobody knew, and of those they changed: remembered by the server.
    const mapping: Record<string, string> = {};
    for (const column of preview.columns) {
      const choice = choices[column.column] ?? '';
      if (column.source === 'unrecognised' || choice !== (column.field ?? '')) mapping[column.header] = choice || IGNORE_COLUMN;
    }
    setBusy(true);
    try {
      await runImport(file, mapping);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const fieldChoices = (columnLetter: string) => {
    // A field another column already fills is not offered again.
    const taken = new Set(Object.entries(choices).flatMap(([letter, field]) => (letter !== columnLetter && field ? [field] : [])));
    return [
      { value: IGNORE_COLUMN, label: t('uploads.leaveOut') },
      ...STUDENT_UPLOAD_FIELDS.filter((field) => !taken.has(field)).map((field) => ({ value: field, label: fieldLabel(field, t) })),
    ];
  };

  const classFields = (
    <Group grow align="flex-start">
      <Select
        label={t('uploads.classForFile')}
        description={t('uploads.classForFileHint')}
        data={classes}
        value={form}
        onChange={setForm}
        error={formError}
        clearable
        searchable
      />
      <TextInput label={t('uploads.streamForFile')} value={stream} onChange={(event) => setStream(event.currentTarget.value)} />
    </Group>
  );

  if (preview) {
    const firstRow = preview.rows[0];
    return (
      <Stack data-testid="upload-mapping">
        <Text size="sm">{t('uploads.mappingHint', { row: preview.header_row, count: preview.total_rows })}</Text>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('uploads.column')}</Table.Th>
              <Table.Th>{t('uploads.heading')}</Table.Th>
              <Table.Th>{t('uploads.example')}</Table.Th>
              <Table.Th>{t('uploads.field')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.columns.map((column) => (
              <Table.Tr key={column.column} data-testid={`mapping-${column.column}`}>
                <Table.Td>{column.column}</Table.Td>
                <Table.Td>
                  <Group gap={6}>
                    <Text size="sm">{column.header}</Text>
                    {column.source === 'unrecognised' && (
                      <Badge color="orange" variant="light">
                        {t('uploads.notRecognised')}
                      </Badge>
                    )}
                    {column.source === 'remembered' && (
                      <Badge color="gray" variant="light">
                        {t('uploads.remembered')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {firstRow?.cells[letterIndex(column.column)] ?? ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={t('uploads.fieldOf', { heading: column.header })}
                    data={fieldChoices(column.column)}
                    value={choices[column.column] || IGNORE_COLUMN}
                    onChange={(value) =>
                      setChoices((before) => ({ ...before, [column.column]: (value ?? '') as StudentUploadTarget | '' }))
                    }
                    allowDeselect={false}
                    searchable
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {!preview.has_class && classFields}
        <UploadProblems problems={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setPreview(null)}>
            {t('uploads.back')}
          </Button>
          <Button onClick={() => void confirm()} loading={busy}>
            {t('uploads.import')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={next} noValidate data-testid="upload-form">
      <Stack>
        <Text size="sm">
          {t('uploads.registerHint')}{' '}
          <Anchor component="button" type="button" onClick={() => void downloadFrom(studentTemplateEndpoint, {}).catch(() => undefined)}>
            {t('uploads.studentsTemplate')}
          </Anchor>
        </Text>
        <FileInput
          label={t('uploads.file')}
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          value={file}
          onChange={setFile}
          error={fileError}
          withAsterisk
          clearable
        />
        <Checkbox label={t('uploads.autoid')} checked={autoid} onChange={(event) => setAutoid(event.currentTarget.checked)} />
        {classFields}
        <UploadProblems problems={problems} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            {t('uploads.upload')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A column's index in a preview row, from its letter (A is 0). */
function letterIndex(letter: string): number {
  let index = 0;
  for (const char of letter) index = index * 26 + (char.charCodeAt(0) - 64);
  return index - 1;
}
