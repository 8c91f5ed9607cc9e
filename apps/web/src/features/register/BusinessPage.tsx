import { Button, FileInput, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  type Business,
  BusinessSchema,
  DEFAULT_COUNTRY,
  DEFAULT_SCHOOL_TYPE,
  type Language,
  REGISTRATION_CATEGORIES,
  SCHOOL_TYPES,
  type SchoolType,
} from '@mustard/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { countryGroups } from '../../lib/countries.js';
import { useSchemaForm } from '../../lib/forms.js';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';
import { draft } from './draft.js';

type BusinessForm = Omit<Business, 'category'> & { category: string };

/** The pictures a logo may be (the server checks the bytes; this only narrows the file chooser). */
const LOGO_ACCEPT = 'image/png,image/jpeg,image/webp';

/** Sign-up, step two (spec §2 /register/business): the school or business itself; a school's type. */
export function BusinessPage() {
  const person = draft.person;
  return person ? <BusinessForm contact={person} /> : <Navigate to="/register" replace />;
}

function BusinessForm({ contact }: { contact: { email: string; telephone: string } }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { form, field } = useSchemaForm<BusinessForm>(
    BusinessSchema,
    draft.organisation ?? {
      name: '',
      email: contact.email,
      telephone: contact.telephone,
      category: '',
      country: DEFAULT_COUNTRY,
      address: '',
      tin: '',
      schooltype: DEFAULT_SCHOOL_TYPE,
    },
  );
  const countries = useMemo(() => countryGroups(i18n.language as Language), [i18n.language]);
  const categories = REGISTRATION_CATEGORIES.map((category) => ({ value: category, label: t(`register.categories.${category}`) }));
  const isSchool = form.getValues().category === 'school';
  const [logo, setLogo] = useState<File | null>(draft.logo ?? null);

  const next = (values: BusinessForm) => {
    draft.organisation = BusinessSchema.parse(values);
    draft.logo = logo;
    navigate('/register/business/products');
  };

  return (
    <PublicFrame width={520}>
      <form onSubmit={form.onSubmit(next)} noValidate>
        <Stack>
          <PublicHeading title={t('register.businessTitle')} text={t('register.businessText')} />
          <TextInput label={t('register.businessName')} autoComplete="organization" withAsterisk {...field('name')} />
          <Select label={t('register.category')} data={categories} withAsterisk allowDeselect={false} {...field('category')} />
          {isSchool && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="school-type-label">
                {t('register.schoolType')}
              </Text>
              <SegmentedControl
                aria-labelledby="school-type-label"
                data={SCHOOL_TYPES.map((type) => ({ value: type, label: t(`register.schoolTypes.${type}`) }))}
                value={form.getValues().schooltype}
                onChange={(type) => form.setFieldValue('schooltype', type as SchoolType)}
              />
            </Stack>
          )}
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
          <FileInput
            label={t('register.logo')}
            description={t('register.logoHint')}
            accept={LOGO_ACCEPT}
            clearable
            value={logo}
            onChange={setLogo}
          />
          <Button type="submit" fullWidth>
            {t('register.continue')}
          </Button>
        </Stack>
      </form>
    </PublicFrame>
  );
}
