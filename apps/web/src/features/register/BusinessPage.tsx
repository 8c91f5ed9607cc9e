import { Button, Select, Stack, TextInput } from '@mantine/core';
import { type Business, BusinessSchema, DEFAULT_COUNTRY, type Language, REGISTRATION_CATEGORIES } from '@mustard/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { countryGroups } from '../../lib/countries.js';
import { useSchemaForm } from '../../lib/forms.js';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';
import type { RegistrationOwner } from './RegisterPage.js';

type BusinessForm = Omit<Business, 'category'> & { category: string };

/** Sign-up, step two (spec §2 /register/business): the school or business itself. */
export function BusinessPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const owner = (useLocation().state as { owner?: RegistrationOwner } | null)?.owner;
  const { form, field } = useSchemaForm<BusinessForm>(BusinessSchema, {
    name: '',
    email: owner?.email ?? '',
    telephone: owner?.telephone ?? '',
    category: '',
    country: DEFAULT_COUNTRY,
    address: '',
    tin: '',
  });
  const countries = useMemo(() => countryGroups(i18n.language as Language), [i18n.language]);
  const categories = REGISTRATION_CATEGORIES.map((category) => ({ value: category, label: t(`register.categories.${category}`) }));

  const next = (values: BusinessForm) => {
    navigate('/register/business/products', { state: { owner, business: BusinessSchema.parse(values) } });
  };

  return (
    <PublicFrame width={520}>
      <form onSubmit={form.onSubmit(next)} noValidate>
        <Stack>
          <PublicHeading title={t('register.businessTitle')} text={t('register.businessText')} />
          <TextInput label={t('register.businessName')} autoComplete="organization" withAsterisk {...field('name')} />
          <Select label={t('register.category')} data={categories} withAsterisk allowDeselect={false} {...field('category')} />
          <TextInput label={t('register.businessEmail')} type="email" autoComplete="email" withAsterisk {...field('email')} />
          <TextInput label={t('register.businessTelephone')} type="tel" autoComplete="tel" withAsterisk {...field('telephone')} />
          <Select
            label={t('register.country')}
            data={countries}
            searchable
            allowDeselect={false}
            nothingFoundMessage={t('register.noCountry')}
            {...field('country')}
          />
          <TextInput label={t('register.address')} autoComplete="street-address" {...field('address')} />
          <TextInput label={t('register.tin')} {...field('tin')} />
          <Button type="submit" fullWidth>
            {t('register.continue')}
          </Button>
        </Stack>
      </form>
    </PublicFrame>
  );
}
