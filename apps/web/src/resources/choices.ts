import { classOptions, PAPERS, requisitionDefaultsEndpoint, roleChoicesEndpoint, TERMS } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../lib/api.js';
import { useAuth } from '../lib/auth.js';
import { allRecords, choicesKey } from '../lib/resource-calls.js';
import type { Choices } from './screen.js';

export interface Choice {
  value: string;
  label: string;
  disabled?: boolean;
}

/** The choices of a select: fixed values, the school's classes, terms, or another resource's records. */
export function useChoices(choices: Choices | undefined): Choice[] {
  const { t } = useTranslation();
  const { session } = useAuth();
  const reference = choices && typeof choices === 'object' && 'resource' in choices ? choices : null;
  const records = useQuery({
    queryKey: choicesKey({ name: reference?.resource.name ?? '' }, session?.tenant?.id),
    queryFn: () => (reference ? allRecords(reference.resource) : Promise.resolve({ rows: [], totalRecords: 0 })),
    enabled: reference !== null,
    staleTime: 60_000,
  });
  const teachers = useQuery({
    queryKey: ['choices', 'teachers', session?.tenant?.id],
    queryFn: () => call(requisitionDefaultsEndpoint, {}),
    enabled: choices === 'teachers',
    staleTime: 60_000,
  });
  const roles = useQuery({
    queryKey: ['choices', 'roles', session?.tenant?.id],
    queryFn: () => call(roleChoicesEndpoint, {}),
    enabled: choices === 'roles',
    staleTime: 60_000,
  });
  if (!choices) return [];
  if (choices === 'roles')
    return (roles.data?.roles ?? []).map((role) => ({
      value: role.name,
      label: t(`roles.${role.name}`, { defaultValue: role.name }),
      disabled: !role.grantable,
    }));
  if (choices === 'teachers') return (teachers.data?.users ?? []).map((user) => ({ value: user.id, label: user.name }));
  if (choices === 'classes') return classOptions(session?.tenant ?? {}).map((form) => ({ value: form, label: form }));
  if (choices === 'terms') return TERMS.map((term) => ({ value: term, label: term }));
  if (choices === 'papers') return PAPERS.map((paper) => ({ value: paper, label: paper }));
  if ('values' in choices) return choices.values.map((value) => ({ value, label: t(`${choices.labels ?? 'options'}.${value}`) }));
  return (records.data?.rows ?? [])
    .filter((row) => !choices.activeOnly || row.active !== false)
    .map((row) => ({ value: String(row.id), label: String(row[choices.label] ?? '') }));
}
