import 'mantine-datatable/styles.layer.css';
import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  Card,
  Checkbox,
  Collapse,
  Drawer,
  Group,
  Menu,
  Pagination,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { decimalsOf, formatAmount, type ListAnswer, RESULT_MESSAGES } from '@mustard/shared';
import { IconDots, IconFilter, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable, type DataTableColumn, type DataTableProps } from 'mantine-datatable';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AppModal } from '../components/AppModal.js';
import { PageLoading } from '../components/PageLoading.js';
import { useAccess } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';
import { type CurrentTerm, calendarDefaults, useCurrentTerm } from '../lib/calendar.js';
import { translateMessage } from '../lib/messages.js';
import { notifyError, runLongAction } from '../lib/notify.js';
import { type ResourceCalls, resourceCalls } from '../lib/resource-calls.js';
import { FieldInput } from './FieldInput.js';
import { ResourceForm } from './ResourceForm.js';
import type { ScreenDefinition } from './screen.js';

type Row = { id: string; children?: Row[]; __depth?: number } & Record<string, unknown>;
type Filters = Record<string, unknown>;

/** `subject.name` read from a row. */
function read(row: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), row);
}

/** Parents, each followed by its children one step in (remark types). */
function flattenTree(rows: Row[]): Row[] {
  return rows.flatMap((row) => [{ ...row, __depth: 0 }, ...(row.children ?? []).map((child) => ({ ...child, __depth: 1 }))]);
}

/** How long a list with a term or year filter waits for the school's calendar. */
const CALENDAR_WAIT_MS = 2000;

/** At this width or less a list is cards and its filters fold (a phone held upright). */
export const PHONE_WIDTH = 600;

/**
 * A page of records as cards (phones): each card shows the given columns as label and value
 * and carries the row's menu; pages turn below, as the table's do.
 */
function RecordCards({
  rows,
  columns,
  total,
  page,
  perPage,
  onPage,
  fetching,
  menu,
  link,
  loadingText,
}: {
  loadingText?: string;
  rows: Row[];
  columns: DataTableColumn<Row>[];
  total: number;
  page: number;
  perPage: number;
  onPage(page: number): void;
  fetching: boolean;
  menu(row: Row): ReactNode;
  link?: (row: Row) => string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (rows.length === 0)
    return (
      <Text c="dimmed" ta="center" py="xl">
        {fetching ? (loadingText ?? t('app.loading')) : t('list.noRecords')}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="record-cards">
      {rows.map((row, index) => (
        <Card
          key={row.id}
          withBorder
          padding="sm"
          data-card={row.id}
          onClick={link ? () => navigate(link(row)) : undefined}
          style={link ? { cursor: 'pointer' } : undefined}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
              {columns.map((column, at) => {
                const value = column.render ? column.render(row, index) : String(read(row, String(column.accessor)) ?? '');
                return (
                  <Group key={String(column.accessor)} gap="xs" wrap="nowrap" align="baseline">
                    <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                      {column.title}
                    </Text>
                    <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                      {/* A card that opens a page: its first value is the link keyboards and screen readers use. */}
                      {link && at === 0 ? (
                        <Anchor component={Link} to={link(row)} onClick={(event) => event.stopPropagation()}>
                          {value}
                        </Anchor>
                      ) : (
                        value
                      )}
                    </Text>
                  </Group>
                );
              })}
            </Stack>
            {menu(row)}
          </Group>
        </Card>
      ))}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed">
          {t('list.pagination', { from: (page - 1) * perPage + 1, to: Math.min(page * perPage, total), total })}
        </Text>
        {pages > 1 && <Pagination total={pages} value={page} onChange={onPage} size="sm" siblings={0} />}
      </Group>
    </Stack>
  );
}

/** A form is open: a new record (with starting values) or an existing one. */
type Editing = { record: Row | null; defaults?: Record<string, unknown> } | null;

/**
 * Every list screen (issue 4): a card with the title and a menu, a search form, a table with
 * paging, row menus and a modal form, all driven by the screen's definition. A term or year
 * filter starts at the school's current term and year (issue 10 point 13), so a screen with
 * one waits for the school's calendar before its first search.
 */
export function ResourceListPage<R extends { id: string }>({ screen }: { screen: ScreenDefinition<R> }) {
  const current = useCurrentTerm();
  // On a stalled connection the wait is short: after two seconds the Ugandan defaults stand in.
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setWaited(true), CALENDAR_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const dated = [...(screen.filters ?? []), ...screen.fields].some((spec) => spec.name === 'term' || spec.name === 'year');
  if (dated && current.pending && !waited) return <PageLoading />;
  return <ResourceList screen={screen as unknown as ScreenDefinition<Row>} current={current} />;
}

function ResourceList({ screen, current }: { screen: ScreenDefinition<Row>; current: CurrentTerm }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const { session, refreshProfile } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { resource } = screen;
  // Every call through a contract: the resource's own, or those its screen gives.
  const calls = screen.calls ?? (resourceCalls(resource) as ResourceCalls<Row>);
  const [draft, setDraft] = useState<Filters>(() => ({
    search: '',
    ...calendarDefaults(screen.filters ?? [], current),
    ...screen.initialFilters?.(),
  }));
  const [filters, setFilters] = useState<Filters>(draft);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(resource.pageSize);
  const [selected, setSelected] = useState<Row[]>([]);
  const [editing, setEditing] = useState<Editing>(null);

  const listKey = ['resource', resource.name, session?.tenant?.id];
  // With fetchAll the server is asked once per search and the browser turns the pages.
  const serverPage = screen.fetchAll ? { page: 1, per_page: screen.fetchAll } : { page, per_page: perPage };
  const queryKey = [...listKey, filters, serverPage.page, serverPage.per_page];
  const { excel: _excel, ...listFilters } = filters;
  const list = useQuery({
    queryKey,
    queryFn: () => calls.list({ ...listFilters, ...serverPage }),
    placeholderData: keepPreviousData,
  });
  const answered = list.data?.rows ?? [];
  const rows = screen.tree ? flattenTree(answered) : screen.fetchAll ? answered.slice((page - 1) * perPage, page * perPage) : answered;
  const total = screen.fetchAll ? answered.length : (list.data?.totalRecords ?? 0);
  const [dialog, setDialog] = useState<{ label: string; render(close: () => void): ReactNode } | null>(null);
  // Read at the first render, so a phone never draws the table first and then the cards.
  const narrow = useMediaQuery(`(max-width: ${PHONE_WIDTH}px)`, undefined, { getInitialValueInEffect: false }) ?? false;
  const filtersId = useId();
  const [folded, filtersFolded] = useDisclosure(true);

  const mayCreate = can(resource.writeAction ?? 'create', resource.subject);
  const mayUpdate = can(resource.writeAction ?? 'update', resource.subject) && screen.editable !== false;
  const mayDelete = can(resource.writeAction ?? 'delete', resource.subject) && screen.deletable !== false;
  const showMenus = !screen.menusForWritersOnly || mayUpdate;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: listKey });
    void queryClient.invalidateQueries({ queryKey: ['choices', resource.name] });
  };

  const search = (event: FormEvent) => {
    event.preventDefault();
    if (screen.excelCheckbox && draft.excel) {
      const { excel: _wanted, ...wanted } = draft;
      void downloadExcel(wanted);
      return;
    }
    setPage(1);
    setFilters({ ...draft });
  };

  const openEdit = async (row: Row) => {
    try {
      // The record is loaded afresh: the list may be minutes old on a slow connection.
      setEditing({ record: calls.read ? await calls.read(row.id) : row });
    } catch (error) {
      notifyError(error);
    }
  };

  const saved = (answer: { updated: Row } | { created: unknown }) => {
    setEditing(null);
    const created = 'created' in answer;
    const notice = created ? screen.created : undefined;
    if (notice && 'created' in answer) setDialog({ label: notice.title, render: () => notice.render(answer.created) });
    else notifications.show({ color: 'green', message: translateMessage(created ? RESULT_MESSAGES.created : RESULT_MESSAGES.updated) });
    if (screen.refreshesProfile) void refreshProfile().catch(notifyError);
    if (!('updated' in answer) || screen.tree) {
      refresh();
      return;
    }
    const record = answer.updated;
    // The row is replaced by the saved record where it stands.
    queryClient.setQueryData<ListAnswer<Row>>(queryKey, (old) =>
      old ? { ...old, rows: old.rows.map((row) => (row.id === record.id ? record : row)) } : old,
    );
    void queryClient.invalidateQueries({ queryKey: ['choices', resource.name] });
  };

  const confirmDelete = (row: Row) =>
    modals.openConfirmModal({
      title: t('list.deleteTitle'),
      children: t(screen.deleteText ?? 'list.deleteText'),
      labels: { confirm: t('list.delete'), cancel: t('list.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        try {
          await calls.remove?.(row.id);
          notifications.show({ color: 'green', message: translateMessage(RESULT_MESSAGES.deleted) });
          refresh();
        } catch (error) {
          notifyError(error);
        }
      },
    });

  const downloadExcel = (which: Filters = listFilters) =>
    runLongAction(calls.download(which), translateMessage(RESULT_MESSAGES.excelReady)).catch(() => undefined);

  const rowMenu = (row: Row): ReactNode => {
    const extra = (screen.rowActions?.(row) ?? []).filter((action) => !action.needs || can(action.needs, resource.subject));
    if (!showMenus || (!mayUpdate && !mayDelete && extra.length === 0)) return null;
    return (
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('list.rowActions')} onClick={(event) => event.stopPropagation()}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown onClick={(event) => event.stopPropagation()}>
          {mayUpdate && <Menu.Item onClick={() => void openEdit(row)}>{t('list.edit')}</Menu.Item>}
          {extra.map((action) =>
            action.to ? (
              <Menu.Item key={action.label} component={Link} to={action.to(row)}>
                {t(action.label)}
              </Menu.Item>
            ) : (
              <Menu.Item
                key={action.label}
                onClick={() => action.run?.(row, { openNew: (defaults) => setEditing({ record: null, defaults }) })}
              >
                {t(action.label)}
              </Menu.Item>
            ),
          )}
          {mayDelete && (
            <Menu.Item color="red" onClick={() => confirmDelete(row)}>
              {t('list.delete')}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
    );
  };

  const columns: DataTableColumn<Row>[] = [
    ...screen.columns.map((column, index) => ({
      accessor: column.field,
      title: t(column.label ?? `fields.${column.field.split('.')[0]}`),
      ...(column.amount ? { textAlign: 'right' as const } : {}),
      render: (row: Row) => {
        const content = column.render ? column.render(row) : formatValue(read(row, column.field), column, t);
        return index === 0 && row.__depth ? (
          <Box pl="xl" data-depth={row.__depth}>
            {content}
          </Box>
        ) : (
          content
        );
      },
    })),
    { accessor: 'actions', title: '', textAlign: 'right' as const, width: 60, render: rowMenu },
  ];

  // mantine-datatable types paging and selection as all-or-nothing groups of props.
  // Until the first answer, the list says it is loading (in the screen's words where the spec gives them).
  const emptyText = list.isPending ? t(screen.loadingText ?? 'app.loading') : t('list.noRecords');
  const tableProps = {
    withTableBorder: true,
    borderRadius: 'sm',
    minHeight: rows.length === 0 ? 160 : undefined,
    highlightOnHover: true,
    records: rows,
    columns,
    fetching: list.isFetching,
    noRecordsText: emptyText,
    ...(screen.tree
      ? {}
      : {
          totalRecords: total,
          recordsPerPage: perPage,
          page,
          onPageChange: setPage,
          paginationText: ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
            t('list.pagination', { from, to, total: totalRecords }),
        }),
    ...(screen.pageSizeOptions && !screen.tree
      ? {
          recordsPerPageOptions: [...screen.pageSizeOptions],
          onRecordsPerPageChange: (size: number) => {
            setPerPage(size);
            setPage(1);
          },
          recordsPerPageLabel: t('list.perPage'),
        }
      : {}),
    ...(screen.selectable ? { selectedRecords: selected, onSelectedRecordsChange: setSelected } : {}),
    ...(screen.rowLink
      ? {
          onRowClick: ({ record }: { record: Row }) => navigate((screen.rowLink as (row: Row) => string)(record)),
          rowStyle: () => ({ cursor: 'pointer' }),
        }
      : {}),
    customRowAttributes: (row: Row) => ({ 'data-row': String(read(row, screen.columns[0]?.field ?? 'id') ?? row.id) }),
  } as unknown as DataTableProps<Row>;

  // A card per record on a phone: the screen's first columns (or those it names), same menu.
  const cardColumns = (screen.cardColumns ?? screen.columns.slice(0, 3).map((column) => column.field)).flatMap((field) => {
    const index = screen.columns.findIndex((column) => column.field === field);
    return index === -1 ? [] : [columns[index] as DataTableColumn<Row>];
  });

  const title = t(screen.page.title);
  return (
    <Stack gap="md">
      <Card withBorder padding="md" data-testid={`screen-${resource.name}`}>
        <Stack>
          <Group justify="space-between">
            <Title order={1} size="h3">
              {title}
            </Title>
            {showMenus && (
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button variant="light" rightSection={<IconDots size={16} />}>
                    {t('list.actions')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {mayCreate && !screen.addActions && (
                    <Menu.Item onClick={() => setEditing({ record: null })}>{t(screen.addLabel ?? 'list.add')}</Menu.Item>
                  )}
                  {mayCreate &&
                    screen.addActions?.map((action) => (
                      <Menu.Item key={action.to} component={Link} to={action.to}>
                        {t(action.label)}
                      </Menu.Item>
                    ))}
                  {mayCreate &&
                    screen.headerActions?.map((action) => (
                      <Menu.Item key={action.label} onClick={() => setDialog(action)}>
                        {t(action.label)}
                      </Menu.Item>
                    ))}
                  {!screen.excelCheckbox && <Menu.Item onClick={() => void downloadExcel()}>{t('list.downloadExcel')}</Menu.Item>}
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
          {narrow && (screen.search !== false || screen.filters) && (
            // On a phone the filters fold away: the list, not the form, fills the first screen.
            <Button
              variant="default"
              leftSection={<IconFilter size={16} />}
              onClick={filtersFolded.toggle}
              aria-expanded={!folded}
              aria-controls={filtersId}
              data-testid="filters-toggle"
            >
              {t('list.filters')}
            </Button>
          )}
          {(screen.search !== false || screen.filters) && (
            <Collapse expanded={!narrow || !folded} id={filtersId}>
              <search>
                <form onSubmit={search} aria-label={t('list.searchForm')}>
                  <Group align="flex-end" wrap="wrap">
                    {screen.filters?.map((spec) => (
                      <Box key={spec.name} w={narrow ? '100%' : 160}>
                        <FieldInput
                          spec={spec}
                          props={{
                            value: draft[spec.name] ?? (spec.kind === 'select' ? null : ''),
                            onChange: (value: unknown) => {
                              // Read now: React may run the updater after the event is gone (currentTarget null).
                              const typed =
                                value && typeof value === 'object' && 'currentTarget' in value
                                  ? (value.currentTarget as HTMLInputElement).value
                                  : value;
                              setDraft((current) => ({ ...current, [spec.name]: typed }));
                            },
                          }}
                        />
                      </Box>
                    ))}
                    {screen.search !== false && (
                      <TextInput
                        label={t('list.search')}
                        value={String(draft.search ?? '')}
                        onChange={(event) => {
                          const value = event.currentTarget.value;
                          setDraft((current) => ({ ...current, search: value }));
                        }}
                        leftSection={<IconSearch size={16} />}
                        w={220}
                      />
                    )}
                    {screen.excelCheckbox && (
                      <Checkbox
                        label={t('list.downloadExcel')}
                        checked={Boolean(draft.excel)}
                        onChange={(event) => {
                          const checked = event.currentTarget.checked;
                          setDraft((current) => ({ ...current, excel: checked }));
                        }}
                        mb={8}
                      />
                    )}
                    <Button type="submit" fullWidth={narrow}>
                      {t('list.searchButton')}
                    </Button>
                  </Group>
                </form>
              </search>
            </Collapse>
          )}
          {narrow && !screen.tree ? (
            <RecordCards
              rows={rows}
              columns={cardColumns}
              total={total}
              page={page}
              perPage={perPage}
              onPage={setPage}
              fetching={list.isFetching}
              loadingText={list.isPending ? emptyText : undefined}
              menu={rowMenu}
              link={screen.rowLink}
            />
          ) : (
            <DataTable<Row> {...tableProps} />
          )}
          {showMenus && mayCreate && !list.isPending && !list.isFetching && rows.length === 0 && (
            // An empty list offers its ways in where the eye already is, not only behind Actions
            // (a new school's empty class list: Add, Upload students).
            <Group justify="center" data-testid="empty-list-actions">
              {!screen.addActions && (
                <Button variant="light" onClick={() => setEditing({ record: null })}>
                  {t(screen.addLabel ?? 'list.add')}
                </Button>
              )}
              {screen.addActions?.map((action) => (
                <Button key={action.to} variant="light" component={Link} to={action.to}>
                  {t(action.label)}
                </Button>
              ))}
              {screen.headerActions
                ?.filter((action) => action.offerWhenEmpty)
                .map((action) => (
                  <Button key={action.label} variant="light" onClick={() => setDialog(action)}>
                    {t(action.label)}
                  </Button>
                ))}
            </Group>
          )}
        </Stack>
        <AppModal opened={dialog !== null} title={dialog ? t(dialog.label) : ''} onClose={() => setDialog(null)}>
          {dialog?.render(() => {
            setDialog(null);
            refresh();
          })}
        </AppModal>
        <FormPanel
          drawer={screen.panel === 'drawer'}
          opened={editing !== null}
          title={
            editing?.record
              ? t(screen.editTitle ?? 'list.editTitle', { name: title })
              : t(screen.addTitle ?? 'list.addTitle', { name: title })
          }
          onClose={() => setEditing(null)}
        >
          {editing && (
            <ResourceForm
              key={editing.record?.id ?? 'new'}
              screen={screen}
              record={editing.record}
              defaults={editing.record ? editing.defaults : { ...calendarDefaults(screen.fields, current), ...editing.defaults }}
              onSaved={saved}
              onCancel={() => setEditing(null)}
            />
          )}
        </FormPanel>
      </Card>
      {screen.footer?.()}
    </Stack>
  );
}

/** The Add/Edit form's frame: the product's modal, or a side panel from the right (staff assignments). */
function FormPanel({
  drawer,
  opened,
  title,
  onClose,
  children,
}: {
  drawer: boolean;
  opened: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (!drawer)
    return (
      <AppModal opened={opened} title={title} onClose={onClose}>
        {children}
      </AppModal>
    );
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={title}
      position="right"
      size="md"
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('list.close') }}
      data-testid="form-panel"
    >
      {children}
    </Drawer>
  );
}

/** A cell's text: yes/no for flags, US English numbers (spec §9), options through their labels. */
function formatValue(
  value: unknown,
  column: { translate?: boolean | string; plain?: boolean; amount?: boolean },
  t: (key: string) => string,
): ReactNode {
  if (value === null || value === undefined || value === '') return '';
  if (column.amount && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return formatAmount(value, decimalsOf(value));
  if (typeof value === 'boolean') return value ? t('list.yes') : t('list.no');
  if (typeof value === 'number') return column.plain ? String(value) : value.toLocaleString('en-US');
  if (!column.translate) return String(value);
  return t(`${typeof column.translate === 'string' ? column.translate : 'options'}.${value}`);
}
