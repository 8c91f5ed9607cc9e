import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  ALEVEL_LETTERS,
  type AlevelLetter,
  type AlevelRule,
  type AlevelTable,
  type GradingRules,
  gradingRulesEndpoint,
  INCOMPLETE_POSITIONS,
  MAX_RULE_NAME,
  MISSED_RULES,
  NC_FORMATIVE_MODES,
  type NcRules,
  type OlevelDivision,
  POSITION_BASES,
  ROUNDING_RULES,
  SchoolGradingRulesSchema,
  SUBJECT_CATEGORIES,
  type SubjectCategory,
  saveGradingRulesEndpoint,
} from '@mustard/shared';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { missedExample, replaced, roundingExamples, shown, typedCondition, typedCount, withLowestBand, without } from './form.js';
import { SettingsActions, SettingsLoading, useSettingsDocument } from './settings-document.js';

/*
 * A school's grading rules (issue 15 point 1; guide grading.md "every rule here is data with a
 * default"): grade values, PLE, UCE and UACE divisions and letters, as one form checked by the
 * same schema as the server. Fields at fault are named beside them; nothing is sent until the
 * whole document passes.
 */

type ErrorOf = (field: string) => string | undefined;
type Change<T> = (update: (current: T) => T) => void;

/** The grading rules page at /school/gradingrules. */
export function GradingRulesPage() {
  const { t } = useTranslation();
  const { session } = useAuth();
  // The new lower-secondary curriculum's rules concern secondary schools only (as its menu entries).
  const secondary = session?.tenant?.schooltype === 'secondary';
  const doc = useSettingsDocument<GradingRules>({
    name: 'rules',
    load: async () => {
      const { rules, defaults, version } = await call(gradingRulesEndpoint, {});
      return { value: rules, defaults, version };
    },
    save: async (rules, version) => {
      const saved = await call(saveGradingRulesEndpoint, { body: { rules, version } });
      return { value: saved.rules, defaults: saved.defaults, version: saved.version };
    },
    schema: SchoolGradingRulesSchema,
  });
  const { change } = doc;
  // One stable change per part: editing a PLE cap draws the Primary section again, not the rest.
  const parts = useMemo(() => {
    const part =
      <K extends keyof GradingRules>(key: K): Change<GradingRules[K]> =>
      (update) =>
        change((current) => ({ ...current, [key]: update(current[key]) }));
    return {
      grades: part('grades'),
      primary: part('primary'),
      olevel: part('olevel'),
      alevel: part('alevel'),
      positions: part('positions'),
      newCurriculum: part('newCurriculum'),
    };
  }, [change]);
  const rules = doc.value;
  if (!rules) return <SettingsLoading query={doc.query} />;

  return (
    <Card withBorder padding="md" data-testid="grading-rules">
      <Stack>
        <Title order={1} size="h3">
          {t('pages.gradingRules')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('gradingRules.explain')}
        </Text>
        <GradesSection grades={rules.grades} change={parts.grades} errorOf={doc.errorOf} />
        <PrimarySection primary={rules.primary} change={parts.primary} errorOf={doc.errorOf} />
        <OlevelSection olevel={rules.olevel} change={parts.olevel} errorOf={doc.errorOf} />
        <AlevelSection alevel={rules.alevel} change={parts.alevel} errorOf={doc.errorOf} />
        <PositionsSection positions={rules.positions} change={parts.positions} errorOf={doc.errorOf} />
        <MissedRoundingSection missed={rules.missed} rounding={rules.rounding} change={change} errorOf={doc.errorOf} />
        {secondary && (
          <NewCurriculumSection
            rules={rules.newCurriculum}
            defaults={doc.query.data?.defaults.newCurriculum}
            change={parts.newCurriculum}
            errorOf={doc.errorOf}
          />
        )}
        <SettingsActions
          conflict={doc.conflict}
          invalid={Object.keys(doc.errors).length > 0}
          busy={doc.busy}
          onSave={() => void doc.submit()}
          onRestore={doc.restoreDefaults}
          onReload={doc.reload}
        />
      </Stack>
    </Card>
  );
}

/** A whole number box of the form: blank while typed is no number, which the check names. */
function CountInput({
  label,
  value,
  onChange,
  error,
  min = 0,
  w = 110,
  optional = false,
  decimals = 0,
}: {
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  error?: string | undefined;
  min?: number;
  w?: number | string;
  optional?: boolean;
  /** Decimals a number may have (a score bound out of 3 has one); whole numbers by default. */
  decimals?: number;
}) {
  return (
    <NumberInput
      aria-label={label}
      value={shown(value)}
      onChange={(typed) => onChange(optional ? typedCondition(typed) : typedCount(typed))}
      allowDecimal={decimals > 0}
      decimalScale={decimals}
      allowNegative={false}
      min={min}
      error={error}
      w={w}
    />
  );
}

/** A labelled count (a setting of its own, not a table cell). */
function LabelledCount(props: Parameters<typeof CountInput>[0] & { testId?: string }) {
  const { label, value, onChange, error, min = 0, testId } = props;
  return (
    <NumberInput
      label={label}
      value={shown(value)}
      onChange={(typed) => onChange(typedCount(typed))}
      allowDecimal={false}
      allowNegative={false}
      min={min}
      error={error}
      data-testid={testId}
    />
  );
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick}>
      <IconTrash size={16} />
    </ActionIcon>
  );
}

function AddButton({ label, onClick, testId }: { label: string; onClick: () => void; testId?: string }) {
  return (
    <Group>
      <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={onClick} data-testid={testId}>
        {label}
      </Button>
    </Group>
  );
}

/** A message about a whole list (none left, a name twice), under it. */
function ListError({ error }: { error: string | undefined }) {
  return error ? (
    <Text size="sm" c="red" role="alert">
      {error}
    </Text>
  ) : null;
}

/** Subject categories as checkboxes, in the product's order. */
function CategoryChecks({
  label,
  value,
  onChange,
  error,
  testId,
}: {
  label: string;
  value: readonly SubjectCategory[];
  onChange: (value: SubjectCategory[]) => void;
  error: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Checkbox.Group
      label={label}
      value={[...value]}
      onChange={(checked) => onChange(SUBJECT_CATEGORIES.filter((category) => checked.includes(category)))}
      error={error}
      data-testid={testId}
    >
      <Group mt="xs" gap="md">
        {SUBJECT_CATEGORIES.map((category) => (
          <Checkbox key={category} value={category} label={t(`options.${category}`)} />
        ))}
      </Group>
    </Checkbox.Group>
  );
}

/** A division's name for labels: its own, or its place while it has none. */
const divisionLabel = (name: string, index: number) => name.trim() || String(index + 1);

// --- Grades --------------------------------------------------------------------------------

const GradesSection = memo(function GradesSection({
  grades,
  change,
  errorOf,
}: {
  grades: GradingRules['grades'];
  change: Change<GradingRules['grades']>;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  const setValues = (update: (values: GradingRules['grades']['values']) => GradingRules['grades']['values']) =>
    change((current) => ({ ...current, values: update(current.values) }));
  return (
    <Fieldset legend={t('gradingRules.grades')} data-testid="rules-grades">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('gradingRules.gradesExplain')}
        </Text>
        <Table withTableBorder w="auto">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('gradingRules.gradeName')}</Table.Th>
              <Table.Th>{t('gradingRules.gradeValue')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {grades.values.map((grade, index) => (
              // Keyed by place: the label is what is being edited.
              <Table.Tr key={index} data-testid={`grade-${index}`}>
                <Table.Td>
                  <TextInput
                    aria-label={t('gradingRules.gradeNameOf', { number: index + 1 })}
                    value={grade.label}
                    maxLength={MAX_RULE_NAME}
                    onChange={(event) => {
                      const label = event.currentTarget.value;
                      setValues((values) => replaced(values, index, (row) => ({ ...row, label })));
                    }}
                    error={errorOf(`grades.values.${index}.label`)}
                    w={110}
                  />
                </Table.Td>
                <Table.Td>
                  <CountInput
                    label={t('gradingRules.gradeValueOf', { grade: divisionLabel(grade.label, index) })}
                    value={grade.value}
                    min={1}
                    onChange={(value) => setValues((values) => replaced(values, index, (row) => ({ ...row, value: value ?? Number.NaN })))}
                    error={errorOf(`grades.values.${index}.value`)}
                  />
                </Table.Td>
                <Table.Td>
                  <RemoveButton
                    label={t('gradingRules.removeGrade', { grade: divisionLabel(grade.label, index) })}
                    onClick={() => setValues((values) => without(values, index))}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <ListError error={errorOf('grades.values')} />
        <AddButton
          label={t('gradingRules.addGrade')}
          onClick={() =>
            setValues((values) => [
              ...values,
              { label: '', value: Math.max(0, ...values.map((grade) => grade.value).filter(Number.isFinite)) + 1 },
            ])
          }
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <LabelledCount
            label={t('gradingRules.creditAtMost')}
            value={grades.creditAtMost}
            min={1}
            onChange={(value) => change((current) => ({ ...current, creditAtMost: value ?? Number.NaN }))}
            error={errorOf('grades.creditAtMost')}
          />
          <LabelledCount
            label={t('gradingRules.passAtMost')}
            value={grades.passAtMost}
            min={1}
            onChange={(value) => change((current) => ({ ...current, passAtMost: value ?? Number.NaN }))}
            error={errorOf('grades.passAtMost')}
          />
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
});

// --- Positions -----------------------------------------------------------------------------

/** What positions rank, and where incomplete results go (grading.md "Positions"). */
const PositionsSection = memo(function PositionsSection({
  positions,
  change,
  errorOf,
}: {
  positions: GradingRules['positions'];
  change: Change<GradingRules['positions']>;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  return (
    <Fieldset legend={t('gradingRules.positions')} data-testid="rules-positions">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('gradingRules.positionsExplain')}
        </Text>
        <Select
          label={t('gradingRules.positionBasis')}
          data={POSITION_BASES.map((basis) => ({ value: basis, label: t(`gradingRules.basis.${basis}`) }))}
          value={positions.basis}
          onChange={(basis) => {
            if (basis) change((current) => ({ ...current, basis: basis as GradingRules['positions']['basis'] }));
          }}
          allowDeselect={false}
          error={errorOf('positions.basis')}
          data-testid="positions-basis"
        />
        <Select
          label={t('gradingRules.incompletePositions')}
          data={INCOMPLETE_POSITIONS.map((choice) => ({ value: choice, label: t(`gradingRules.incomplete.${choice}`) }))}
          value={positions.incomplete}
          onChange={(incomplete) => {
            if (incomplete) change((current) => ({ ...current, incomplete: incomplete as GradingRules['positions']['incomplete'] }));
          }}
          allowDeselect={false}
          error={errorOf('positions.incomplete')}
          data-testid="positions-incomplete"
        />
      </Stack>
    </Fieldset>
  );
});

// --- Missed tests and rounding ------------------------------------------------------------

/**
 * How a missed mark type counts and whether the subject mark is rounded before grading
 * (grading.md), each with a worked example computed by the grading engine for the choice shown.
 */
const MissedRoundingSection = memo(function MissedRoundingSection({
  missed,
  rounding,
  change,
  errorOf,
}: {
  missed: GradingRules['missed'];
  rounding: GradingRules['rounding'];
  change: Change<GradingRules>;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  const example = missedExample(missed);
  return (
    <Fieldset legend={t('gradingRules.missedAndRounding')} data-testid="rules-missed-rounding">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('gradingRules.missedExplain')}
        </Text>
        <Select
          label={t('gradingRules.missedRule')}
          data={MISSED_RULES.map((rule) => ({ value: rule, label: t(`gradingRules.missedOption.${rule}`) }))}
          value={missed}
          onChange={(chosen) => {
            if (chosen) change((current) => ({ ...current, missed: chosen as GradingRules['missed'] }));
          }}
          allowDeselect={false}
          error={errorOf('missed')}
          data-testid="missed-rule"
        />
        <Text size="sm" data-testid="missed-example">
          {t(`gradingRules.missedExample.${missed}`, { total: example.total ?? '', grade: example.grade ?? '' })}
        </Text>
        <Select
          label={t('gradingRules.roundingRule')}
          data={ROUNDING_RULES.map((rule) => ({ value: rule, label: t(`gradingRules.roundingOption.${rule}`) }))}
          value={rounding}
          onChange={(chosen) => {
            if (chosen) change((current) => ({ ...current, rounding: chosen as GradingRules['rounding'] }));
          }}
          allowDeselect={false}
          error={errorOf('rounding')}
          data-testid="rounding-rule"
        />
        <Text size="sm" c="dimmed">
          {t('gradingRules.roundingExplain')}
        </Text>
        <Stack gap={2} data-testid="rounding-example">
          {roundingExamples(rounding).map((each) => (
            <Text size="sm" key={each.mark}>
              {t('gradingRules.roundingExample', { mark: each.mark, printed: each.printed, grade: each.grade ?? '' })}
            </Text>
          ))}
        </Stack>
      </Stack>
    </Fieldset>
  );
});

// --- Primary (PLE) -------------------------------------------------------------------------

const PrimarySection = memo(function PrimarySection({
  primary,
  change,
  errorOf,
}: {
  primary: GradingRules['primary'];
  change: Change<GradingRules['primary']>;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  type Division = GradingRules['primary']['divisions'][number];
  const setDivisions = (update: (divisions: Division[]) => Division[]) =>
    change((current) => ({ ...current, divisions: update(current.divisions) }));
  return (
    <Fieldset legend={t('gradingRules.primary')} data-testid="rules-primary">
      <Stack>
        <CategoryChecks
          label={t('gradingRules.counted')}
          value={primary.countedCategories}
          onChange={(countedCategories) => change((current) => ({ ...current, countedCategories }))}
          error={errorOf('primary.countedCategories')}
          testId="primary-counted"
        />
        <Text size="sm" fw={500}>
          {t('gradingRules.divisions')}
        </Text>
        <Table withTableBorder w="auto">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('gradingRules.division')}</Table.Th>
              <Table.Th>{t('gradingRules.aggregateAtMost')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {primary.divisions.map((division, index) => {
              const name = divisionLabel(division.division, index);
              return (
                <Table.Tr key={index} data-testid={`primary-division-${index}`}>
                  <Table.Td>
                    <TextInput
                      aria-label={t('gradingRules.divisionNameOf', { number: index + 1 })}
                      value={division.division}
                      maxLength={MAX_RULE_NAME}
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        setDivisions((divisions) => replaced(divisions, index, (row) => ({ ...row, division: value })));
                      }}
                      error={errorOf(`primary.divisions.${index}.division`)}
                      w={110}
                    />
                  </Table.Td>
                  <Table.Td>
                    <CountInput
                      label={t('gradingRules.aggregateOf', { division: name })}
                      value={division.aggregateAtMost}
                      onChange={(value) =>
                        setDivisions((divisions) => replaced(divisions, index, (row) => ({ ...row, aggregateAtMost: value ?? Number.NaN })))
                      }
                      error={errorOf(`primary.divisions.${index}.aggregateAtMost`)}
                      w={140}
                    />
                  </Table.Td>
                  <Table.Td>
                    <RemoveButton
                      label={t('gradingRules.removeDivision', { division: name })}
                      onClick={() => setDivisions((divisions) => without(divisions, index))}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        <ListError error={errorOf('primary.divisions')} />
        <AddButton
          label={t('gradingRules.addDivision')}
          testId="primary-add-division"
          onClick={() =>
            setDivisions((divisions) => [...divisions, { division: '', aggregateAtMost: (divisions.at(-1)?.aggregateAtMost ?? 0) + 1 }])
          }
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('gradingRules.otherwise')}
            value={primary.otherwise}
            maxLength={MAX_RULE_NAME}
            onChange={(event) => {
              const otherwise = event.currentTarget.value;
              change((current) => ({ ...current, otherwise }));
            }}
            error={errorOf('primary.otherwise')}
          />
          <TextInput
            label={t('gradingRules.noMark')}
            value={primary.noMark}
            maxLength={MAX_RULE_NAME}
            onChange={(event) => {
              const noMark = event.currentTarget.value;
              change((current) => ({ ...current, noMark }));
            }}
            error={errorOf('primary.noMark')}
          />
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
});

// --- O level (UCE) -------------------------------------------------------------------------

const OlevelSection = memo(function OlevelSection({
  olevel,
  change,
  errorOf,
}: {
  olevel: GradingRules['olevel'];
  change: Change<GradingRules['olevel']>;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  const setDivisions = (update: (divisions: OlevelDivision[]) => OlevelDivision[]) =>
    change((current) => ({ ...current, divisions: update(current.divisions) }));
  return (
    <Fieldset legend={t('gradingRules.olevel')} data-testid="rules-olevel">
      <Stack>
        <LabelledCount
          label={t('gradingRules.bestCount')}
          value={olevel.bestCount}
          min={1}
          onChange={(value) => change((current) => ({ ...current, bestCount: value ?? Number.NaN }))}
          error={errorOf('olevel.bestCount')}
        />
        <Text size="sm" fw={500}>
          {t('gradingRules.divisionsInOrder')}
        </Text>
        {olevel.divisions.map((division, index) => (
          <OlevelDivisionCard
            // Keyed by place: the name is what is being edited.
            key={index}
            division={division}
            index={index}
            change={(update) => setDivisions((divisions) => replaced(divisions, index, update))}
            remove={() => setDivisions((divisions) => without(divisions, index))}
            errorOf={(field) => errorOf(`olevel.divisions.${index}.${field}`)}
          />
        ))}
        <ListError error={errorOf('olevel.divisions')} />
        <AddButton
          label={t('gradingRules.addDivision')}
          onClick={() =>
            setDivisions((divisions) => [
              ...divisions,
              {
                division: '',
                aggregateAtMost: (divisions.at(-1)?.aggregateAtMost ?? 0) + 1,
                minSubjects: 0,
                requiredCategories: [],
                creditIn: [],
                anyOf: [],
              },
            ])
          }
        />
        <TextInput
          label={t('gradingRules.otherwise')}
          value={olevel.otherwise}
          maxLength={MAX_RULE_NAME}
          onChange={(event) => {
            const otherwise = event.currentTarget.value;
            change((current) => ({ ...current, otherwise }));
          }}
          error={errorOf('olevel.otherwise')}
        />
      </Stack>
    </Fieldset>
  );
});

function OlevelDivisionCard({
  division,
  index,
  change,
  remove,
  errorOf,
}: {
  division: OlevelDivision;
  index: number;
  change: Change<OlevelDivision>;
  remove: () => void;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  const name = divisionLabel(division.division, index);
  type Alternative = OlevelDivision['anyOf'][number];
  const setAlternatives = (update: (anyOf: Alternative[]) => Alternative[]) =>
    change((current) => ({ ...current, anyOf: update(current.anyOf) }));
  return (
    <Card withBorder padding="sm" data-testid={`olevel-division-${index}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ flex: 1 }}>
            <TextInput
              label={t('gradingRules.division')}
              value={division.division}
              maxLength={MAX_RULE_NAME}
              onChange={(event) => {
                const value = event.currentTarget.value;
                change((current) => ({ ...current, division: value }));
              }}
              error={errorOf('division')}
            />
            <LabelledCount
              label={t('gradingRules.aggregateAtMost')}
              value={division.aggregateAtMost}
              onChange={(value) => change((current) => ({ ...current, aggregateAtMost: value ?? Number.NaN }))}
              error={errorOf('aggregateAtMost')}
            />
            <LabelledCount
              label={t('gradingRules.minSubjects')}
              value={division.minSubjects}
              onChange={(value) => change((current) => ({ ...current, minSubjects: value ?? Number.NaN }))}
              error={errorOf('minSubjects')}
            />
          </SimpleGrid>
          <RemoveButton label={t('gradingRules.removeDivision', { division: name })} onClick={remove} />
        </Group>
        <CategoryChecks
          label={t('gradingRules.requiredCategories')}
          value={division.requiredCategories}
          onChange={(requiredCategories) => change((current) => ({ ...current, requiredCategories }))}
          error={errorOf('requiredCategories')}
          testId={`olevel-required-${index}`}
        />
        <CategoryChecks
          label={t('gradingRules.creditIn')}
          value={division.creditIn}
          onChange={(creditIn) => change((current) => ({ ...current, creditIn }))}
          error={errorOf('creditIn')}
          testId={`olevel-credit-in-${index}`}
        />
        <Text size="sm" fw={500}>
          {t('gradingRules.alternatives')}
        </Text>
        {division.anyOf.length > 0 && (
          <Table withTableBorder w="auto">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('gradingRules.minPasses')}</Table.Th>
                <Table.Th>{t('gradingRules.minCredits')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {division.anyOf.map((alternative, at) => (
                <Table.Tr key={at}>
                  <Table.Td>
                    <CountInput
                      label={t('gradingRules.minPassesOf', { division: name, number: at + 1 })}
                      value={alternative.minPasses}
                      onChange={(value) =>
                        setAlternatives((anyOf) => replaced(anyOf, at, (row) => ({ ...row, minPasses: value ?? Number.NaN })))
                      }
                      error={errorOf(`anyOf.${at}.minPasses`)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <CountInput
                      label={t('gradingRules.minCreditsOf', { division: name, number: at + 1 })}
                      value={alternative.minCredits}
                      onChange={(value) =>
                        setAlternatives((anyOf) => replaced(anyOf, at, (row) => ({ ...row, minCredits: value ?? Number.NaN })))
                      }
                      error={errorOf(`anyOf.${at}.minCredits`)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <RemoveButton
                      label={t('gradingRules.removeAlternative', { division: name, number: at + 1 })}
                      onClick={() => setAlternatives((anyOf) => without(anyOf, at))}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <ListError error={errorOf('anyOf')} />
        <AddButton
          label={t('gradingRules.addAlternative')}
          onClick={() => setAlternatives((anyOf) => [...anyOf, { minPasses: 0, minCredits: 0 }])}
        />
      </Stack>
    </Card>
  );
}

// --- A level (UACE) ------------------------------------------------------------------------

function LetterSelect({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: AlevelLetter;
  onChange: (letter: AlevelLetter) => void;
  error?: string | undefined;
}) {
  return (
    <Select
      aria-label={label}
      data={[...ALEVEL_LETTERS]}
      value={value}
      onChange={(letter) => {
        if (letter) onChange(letter as AlevelLetter);
      }}
      allowDeselect={false}
      error={error}
      w={80}
    />
  );
}

const AlevelSection = memo(function AlevelSection({
  alevel,
  change,
  errorOf,
}: {
  alevel: GradingRules['alevel'];
  change: Change<GradingRules['alevel']>;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  const setTables = (update: (tables: AlevelTable[]) => AlevelTable[]) =>
    change((current) => ({ ...current, tables: update(current.tables) }));
  const nextPapers = (tables: AlevelTable[]) => {
    const used = new Set(tables.map((table) => table.papers));
    return [1, 2, 3, 4, 5, 6].find((papers) => !used.has(papers)) ?? 1;
  };
  return (
    <Fieldset legend={t('gradingRules.alevel')} data-testid="rules-alevel">
      <Stack>
        <Text size="sm" fw={500}>
          {t('gradingRules.tables')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('gradingRules.tablesExplain')}
        </Text>
        {alevel.tables.map((table, index) => (
          <AlevelTableCard
            key={index}
            table={table}
            index={index}
            change={(update) => setTables((tables) => replaced(tables, index, update))}
            remove={() => setTables((tables) => without(tables, index))}
            errorOf={(field) => errorOf(`alevel.tables.${index}.${field}`)}
          />
        ))}
        <ListError error={errorOf('alevel.tables')} />
        <AddButton
          label={t('gradingRules.addTable')}
          onClick={() => setTables((tables) => [...tables, { papers: nextPapers(tables), rules: [], otherwise: 'F' }])}
        />
        <Text size="sm" fw={500}>
          {t('gradingRules.points')}
        </Text>
        <Group data-testid="alevel-points">
          {ALEVEL_LETTERS.map((letter) => (
            <NumberInput
              key={letter}
              label={letter}
              aria-label={t('gradingRules.pointsOf', { letter })}
              value={shown(alevel.points[letter])}
              onChange={(typed) => change((current) => ({ ...current, points: { ...current.points, [letter]: typedCount(typed) } }))}
              allowDecimal={false}
              allowNegative={false}
              min={0}
              error={errorOf(`alevel.points.${letter}`)}
              w={80}
            />
          ))}
        </Group>
        <Text size="sm" fw={500}>
          {t('gradingRules.subsidiary')}
        </Text>
        <CategoryChecks
          label={t('gradingRules.subsidiaryCategories')}
          value={alevel.subsidiary.categories}
          onChange={(categories) => change((current) => ({ ...current, subsidiary: { ...current.subsidiary, categories } }))}
          error={errorOf('alevel.subsidiary.categories')}
          testId="subsidiary-categories"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <LabelledCount
            label={t('gradingRules.subsidiaryCreditAtMost')}
            value={alevel.subsidiary.creditAtMost}
            min={1}
            onChange={(value) =>
              change((current) => ({ ...current, subsidiary: { ...current.subsidiary, creditAtMost: value ?? Number.NaN } }))
            }
            error={errorOf('alevel.subsidiary.creditAtMost')}
          />
          <LabelledCount
            label={t('gradingRules.subsidiaryPoints')}
            value={alevel.subsidiary.points}
            onChange={(value) => change((current) => ({ ...current, subsidiary: { ...current.subsidiary, points: value ?? Number.NaN } }))}
            error={errorOf('alevel.subsidiary.points')}
          />
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
});

function AlevelTableCard({
  table,
  index,
  change,
  remove,
  errorOf,
}: {
  table: AlevelTable;
  index: number;
  change: Change<AlevelTable>;
  remove: () => void;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  const setRules = (update: (rules: AlevelRule[]) => AlevelRule[]) => change((current) => ({ ...current, rules: update(current.rules) }));
  const condition = (rule: number, field: 'worstAtMost' | 'othersAtMost' | 'sumAtMost', value: number | undefined) =>
    setRules((rules) =>
      replaced(rules, rule, (row) => {
        const { [field]: _before, ...rest } = row;
        return value === undefined ? rest : { ...rest, [field]: value };
      }),
    );
  const papers = Number.isFinite(table.papers) ? table.papers : '?';
  return (
    <Card withBorder padding="sm" data-testid={`alevel-table-${index}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <LabelledCount
            label={t('gradingRules.papers')}
            value={table.papers}
            min={1}
            onChange={(value) => change((current) => ({ ...current, papers: value ?? Number.NaN }))}
            error={errorOf('papers')}
          />
          <RemoveButton label={t('gradingRules.removeTable', { papers })} onClick={remove} />
        </Group>
        {table.rules.length > 0 && (
          <Table withTableBorder w="auto">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('gradingRules.letter')}</Table.Th>
                <Table.Th>{t('gradingRules.worstAtMost')}</Table.Th>
                <Table.Th>{t('gradingRules.othersAtMost')}</Table.Th>
                <Table.Th>{t('gradingRules.sumAtMost')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {table.rules.map((rule, at) => {
                const about = { papers, number: at + 1 };
                return (
                  <Table.Tr key={at}>
                    <Table.Td>
                      <LetterSelect
                        label={t('gradingRules.letterOf', about)}
                        value={rule.letter}
                        onChange={(letter) => setRules((rules) => replaced(rules, at, (row) => ({ ...row, letter })))}
                        error={errorOf(`rules.${at}.letter`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <CountInput
                        label={t('gradingRules.worstAtMostOf', about)}
                        value={rule.worstAtMost}
                        optional
                        min={1}
                        onChange={(value) => condition(at, 'worstAtMost', value)}
                        error={errorOf(`rules.${at}.worstAtMost`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <CountInput
                        label={t('gradingRules.othersAtMostOf', about)}
                        value={rule.othersAtMost}
                        optional
                        min={1}
                        onChange={(value) => condition(at, 'othersAtMost', value)}
                        error={errorOf(`rules.${at}.othersAtMost`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <CountInput
                        label={t('gradingRules.sumAtMostOf', about)}
                        value={rule.sumAtMost}
                        optional
                        min={1}
                        onChange={(value) => condition(at, 'sumAtMost', value)}
                        error={errorOf(`rules.${at}.sumAtMost`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <RemoveButton label={t('gradingRules.removeRule', about)} onClick={() => setRules((rules) => without(rules, at))} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <AddButton label={t('gradingRules.addRule')} onClick={() => setRules((rules) => [...rules, { letter: 'A', worstAtMost: 2 }])} />
        <Group gap="xs" align="center">
          <Text size="sm">{t('gradingRules.otherwiseLetter')}</Text>
          <LetterSelect
            label={t('gradingRules.otherwiseLetterOf', { papers })}
            value={table.otherwise}
            onChange={(otherwise) => change((current) => ({ ...current, otherwise }))}
            error={errorOf('otherwise')}
          />
        </Group>
      </Stack>
    </Card>
  );
}

// --- New curriculum (S1-S4) ----------------------------------------------------------------

/** The longest descriptor of a band (NcRulesSchema's): a sentence printed in the card's key. */
const MAX_DESCRIPTOR = 300;

/**
 * The new lower-secondary curriculum's rules (guide new-curriculum.md, "What is computed"): the
 * identifier bands over a score out of 3, how the formative 20% is made, the A..E table over the
 * total out of 100, and what the card prints beyond them. The defaults are said under it.
 */
const NewCurriculumSection = memo(function NewCurriculumSection({
  rules,
  defaults,
  change,
  errorOf,
}: {
  rules: NcRules;
  defaults: NcRules | undefined;
  change: Change<NcRules>;
  errorOf: ErrorOf;
}) {
  const { t } = useTranslation();
  type Identifier = NcRules['identifiers'][number];
  type Grade = NcRules['grades'][number];
  const setIdentifiers = (update: (identifiers: Identifier[]) => Identifier[]) =>
    change((current) => ({ ...current, identifiers: update(current.identifiers) }));
  const setGrades = (update: (grades: Grade[]) => Grade[]) => change((current) => ({ ...current, grades: update(current.grades) }));
  const bands = (list: ReadonlyArray<{ name: string; atLeast: number }>) =>
    list.map((band) => t('gradingRules.nc.bandFrom', { name: band.name, from: band.atLeast })).join(', ');
  return (
    <Fieldset legend={t('gradingRules.nc.title')} data-testid="rules-new-curriculum">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('gradingRules.nc.explain')}
        </Text>
        <Text size="sm" fw={500}>
          {t('gradingRules.nc.identifiers')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('gradingRules.nc.identifiersExplain')}
        </Text>
        <Table withTableBorder w="auto">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('gradingRules.nc.identifier')}</Table.Th>
              <Table.Th>{t('gradingRules.nc.scoreFrom')}</Table.Th>
              <Table.Th>{t('gradingRules.nc.descriptor')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rules.identifiers.map((band, index) => {
              const name = divisionLabel(band.label, index);
              return (
                // Keyed by place: the label is what is being edited.
                <Table.Tr key={index} data-testid={`nc-identifier-${index}`}>
                  <Table.Td>
                    <TextInput
                      aria-label={t('gradingRules.nc.identifierNameOf', { number: index + 1 })}
                      value={band.label}
                      maxLength={MAX_RULE_NAME}
                      onChange={(event) => {
                        const label = event.currentTarget.value;
                        setIdentifiers((identifiers) => replaced(identifiers, index, (row) => ({ ...row, label })));
                      }}
                      error={errorOf(`newCurriculum.identifiers.${index}.label`)}
                      w={140}
                    />
                  </Table.Td>
                  <Table.Td>
                    <CountInput
                      label={t('gradingRules.nc.scoreFromOf', { identifier: name })}
                      value={band.atLeast}
                      decimals={1}
                      onChange={(value) =>
                        setIdentifiers((identifiers) => replaced(identifiers, index, (row) => ({ ...row, atLeast: value ?? Number.NaN })))
                      }
                      error={errorOf(`newCurriculum.identifiers.${index}.atLeast`)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Textarea
                      aria-label={t('gradingRules.nc.identifierDescriptorOf', { identifier: name })}
                      value={band.descriptor}
                      maxLength={MAX_DESCRIPTOR}
                      autosize
                      minRows={1}
                      onChange={(event) => {
                        const descriptor = event.currentTarget.value;
                        setIdentifiers((identifiers) => replaced(identifiers, index, (row) => ({ ...row, descriptor })));
                      }}
                      error={errorOf(`newCurriculum.identifiers.${index}.descriptor`)}
                      w={360}
                    />
                  </Table.Td>
                  <Table.Td>
                    <RemoveButton
                      label={t('gradingRules.nc.removeIdentifier', { identifier: name })}
                      onClick={() => setIdentifiers((identifiers) => without(identifiers, index))}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        <ListError error={errorOf('newCurriculum.identifiers')} />
        <AddButton
          label={t('gradingRules.nc.addIdentifier')}
          testId="nc-add-identifier"
          onClick={() => setIdentifiers((identifiers) => withLowestBand(identifiers, { label: '', atLeast: 0, descriptor: '' }, 0.1, 3))}
        />
        <Select
          label={t('gradingRules.nc.formative')}
          data={NC_FORMATIVE_MODES.map((mode) => ({ value: mode, label: t(`gradingRules.nc.formativeOption.${mode}`) }))}
          value={rules.formative}
          onChange={(formative) => {
            if (formative) change((current) => ({ ...current, formative: formative as NcRules['formative'] }));
          }}
          allowDeselect={false}
          error={errorOf('newCurriculum.formative')}
          data-testid="nc-formative"
        />
        <Text size="sm" fw={500}>
          {t('gradingRules.nc.grades')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('gradingRules.nc.gradesExplain')}
        </Text>
        <Table withTableBorder w="auto">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('gradingRules.gradeName')}</Table.Th>
              <Table.Th>{t('gradingRules.nc.percentFrom')}</Table.Th>
              <Table.Th>{t('gradingRules.nc.descriptor')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rules.grades.map((grade, index) => {
              const name = divisionLabel(grade.grade, index);
              return (
                <Table.Tr key={index} data-testid={`nc-grade-${index}`}>
                  <Table.Td>
                    <TextInput
                      aria-label={t('gradingRules.nc.gradeNameOf', { number: index + 1 })}
                      value={grade.grade}
                      maxLength={MAX_RULE_NAME}
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        setGrades((grades) => replaced(grades, index, (row) => ({ ...row, grade: value })));
                      }}
                      error={errorOf(`newCurriculum.grades.${index}.grade`)}
                      w={110}
                    />
                  </Table.Td>
                  <Table.Td>
                    <CountInput
                      label={t('gradingRules.nc.percentFromOf', { grade: name })}
                      value={grade.atLeast}
                      onChange={(value) =>
                        setGrades((grades) => replaced(grades, index, (row) => ({ ...row, atLeast: value ?? Number.NaN })))
                      }
                      error={errorOf(`newCurriculum.grades.${index}.atLeast`)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Textarea
                      aria-label={t('gradingRules.nc.gradeDescriptorOf', { grade: name })}
                      value={grade.descriptor}
                      maxLength={MAX_DESCRIPTOR}
                      autosize
                      minRows={1}
                      onChange={(event) => {
                        const descriptor = event.currentTarget.value;
                        setGrades((grades) => replaced(grades, index, (row) => ({ ...row, descriptor })));
                      }}
                      error={errorOf(`newCurriculum.grades.${index}.descriptor`)}
                      w={360}
                    />
                  </Table.Td>
                  <Table.Td>
                    <RemoveButton
                      label={t('gradingRules.nc.removeGrade', { grade: name })}
                      onClick={() => setGrades((grades) => without(grades, index))}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        <ListError error={errorOf('newCurriculum.grades')} />
        <AddButton
          label={t('gradingRules.nc.addGrade')}
          testId="nc-add-grade"
          onClick={() => setGrades((grades) => withLowestBand(grades, { grade: '', atLeast: 0, descriptor: '' }, 1, 100))}
        />
        <Switch
          label={t('gradingRules.nc.positions')}
          description={t('gradingRules.nc.positionsExplain')}
          checked={rules.positions}
          onChange={(event) => {
            const positions = event.currentTarget.checked;
            change((current) => ({ ...current, positions }));
          }}
          error={errorOf('newCurriculum.positions')}
        />
        <Switch
          label={t('gradingRules.nc.certificate')}
          description={t('gradingRules.nc.certificateExplain')}
          checked={rules.certificate}
          onChange={(event) => {
            const certificate = event.currentTarget.checked;
            change((current) => ({ ...current, certificate }));
          }}
          error={errorOf('newCurriculum.certificate')}
        />
        {defaults && (
          <Text size="sm" c="dimmed" data-testid="nc-defaults">
            {t('gradingRules.nc.defaults', {
              identifiers: bands(defaults.identifiers.map((band) => ({ name: band.label, atLeast: band.atLeast }))),
              formative: t(`gradingRules.nc.formativeOption.${defaults.formative}`),
              grades: bands(defaults.grades.map((band) => ({ name: band.grade, atLeast: band.atLeast }))),
              positions: t(defaults.positions ? 'gradingRules.nc.printed' : 'gradingRules.nc.notPrinted'),
              certificate: t(defaults.certificate ? 'gradingRules.nc.printed' : 'gradingRules.nc.notPrinted'),
            })}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
});
