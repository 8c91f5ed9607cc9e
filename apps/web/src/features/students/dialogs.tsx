import { Alert, Anchor, Button, FileInput, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import {
  type EndpointOutput,
  FEE_JOURNAL_POSITIONS,
  journalTemplateEndpoint,
  promoteEndpoint,
  STUDENT_MESSAGES,
  TERMS,
  uploadJournalEndpoint,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, downloadFrom } from '../../lib/api.js';
import { useCurrentTerm } from '../../lib/calendar.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, runLongAction } from '../../lib/notify.js';
import { rowProblems, UploadProblems } from './UploadStudents.js';

export { UploadStudentsDialog } from './UploadStudents.js';

type UploadAnswer = EndpointOutput<typeof uploadJournalEndpoint>;

/** The outcome of an upload in words: how many learners or lines were added, changed, or already there. */
function summary(answer: UploadAnswer, t: TFunction): string {
  return `${translateMessage(answer.message)} ${t('uploads.counts', { ...answer })}`;
}

function UploadForm({
  template,
  templateLabel,
  onUpload,
  children,
  onDone,
}: {
  /** Downloads the workbook to fill in. */
  template(): Promise<unknown>;
  templateLabel: string;
  onUpload(file: File): Promise<UploadAnswer>;
  children?: React.ReactNode;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblems([]);
    if (!file) {
      setFileError(translateMessage(STUDENT_MESSAGES.fileRequired));
      return;
    }
    setFileError(null);
    setBusy(true);
    try {
      await runLongAction(onUpload(file), (answer) => summary(answer, t));
      onDone();
    } catch (error) {
      const rows = rowProblems(error, t);
      setProblems(rows.length > 0 ? rows : [errorText(error)]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="upload-form">
      <Stack>
        <Text size="sm">
          {t('uploads.templateHint')}{' '}
          <Anchor component="button" type="button" onClick={() => void template().catch(() => undefined)}>
            {templateLabel}
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
        {children}
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

/** Upload Financial Records (spec §7): a fee journal for a term, with the invoice and receipt columns. */
export function UploadJournalDialog({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  // The fees of the current term (or the coming one, in a holiday) unless the bursar says otherwise.
  const current = useCurrentTerm();
  const [term, setTerm] = useState<string | null>(current.term);
  const [year, setYear] = useState<number | string>(current.year);
  const calendarKnown = !current.pending;
  useEffect(() => {
    if (!calendarKnown) return;
    setTerm(current.term);
    setYear(current.year);
  }, [calendarKnown, current.term, current.year]);
  const [invoice, setInvoice] = useState<number | string>(FEE_JOURNAL_POSITIONS.invoice);
  const [receipt, setReceipt] = useState<number | string>(FEE_JOURNAL_POSITIONS.receipt);
  return (
    <UploadForm
      template={() => downloadFrom(journalTemplateEndpoint, {})}
      templateLabel={t('uploads.journalTemplate')}
      onDone={onDone}
      onUpload={async (file) => {
        const form = new FormData();
        form.set('file', file, file.name);
        form.set('term', term ?? '');
        form.set('year', String(year));
        form.set('invoice', String(invoice));
        form.set('receipt', String(receipt));
        return call(uploadJournalEndpoint, { body: form });
      }}
    >
      <Group grow>
        <Select label={t('fields.term')} data={[...TERMS]} value={term} onChange={setTerm} withAsterisk allowDeselect={false} />
        <NumberInput label={t('fields.year')} value={year} onChange={setYear} withAsterisk />
      </Group>
      <Group grow>
        <NumberInput label={t('uploads.invoicePosition')} value={invoice} onChange={setInvoice} min={1} max={200} />
        <NumberInput label={t('uploads.receiptPosition')} value={receipt} onChange={setReceipt} min={1} max={200} />
      </Group>
    </UploadForm>
  );
}

/** Promote students (spec §4): what will happen, the warning, then one transaction on the server. */
export function PromoteDialog({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const preview = useQuery({
    queryKey: ['promote-preview'],
    queryFn: () => call(promoteEndpoint, {}),
    gcTime: 0,
  });
  const promote = async () => {
    setBusy(true);
    try {
      await runLongAction(
        call(promoteEndpoint, { query: { promote: '1' } }),
        (answer) => `${translateMessage(answer.message)} ${t('students.promotedCounts', { ...answer })}`,
      );
      onDone();
    } catch {
      // The toast has said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack data-testid="promote-dialog">
      <Alert color="orange">{translateMessage(STUDENT_MESSAGES.promoteConfirm)}</Alert>
      {preview.data && <Text size="sm">{t('students.promotePreview', { ...preview.data })}</Text>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('list.no')}
        </Button>
        <Button color="orange" onClick={() => void promote()} loading={busy} disabled={!preview.data}>
          {t('list.yes')}
        </Button>
      </Group>
    </Stack>
  );
}
