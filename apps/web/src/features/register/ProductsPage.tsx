import { Alert, Button, Checkbox, SimpleGrid, Stack, Text } from '@mantine/core';
import { type Language, type RegistrationBody, registerEndpoint, STARTER_FAMILY, starterProductsOf } from '@mustard/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { call } from '../../lib/api.js';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';
import { draft } from './draft.js';
import { explainFailure } from './explain.js';

/** The registration as multipart with its logo: the JSON fields' names (`person[name]`, `products[]`) and the file `logo`. */
function withLogo(body: RegistrationBody, logo: File): FormData {
  const form = new FormData();
  for (const part of ['person', 'organisation'] as const)
    for (const [name, value] of Object.entries(body[part])) if (value !== undefined) form.set(`${part}[${name}]`, String(value));
  for (const product of body.products ?? []) form.append('products[]', product);
  form.set('locale', body.locale ?? 'en');
  form.set('logo', logo);
  return form;
}

/**
 * Sign-up, step three (spec §2 /register/business/products): a business picks a few starter
 * products from Mustard's own list, more later; a school reads the Ugandan defaults it starts
 * with. Then the three steps go together (`POST /auth/register`) and the person is asked to
 * confirm their address.
 */
export function ProductsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const { person, organisation } = draft;
  if (!person) return <Navigate to="/register" replace />;
  if (!organisation) return <Navigate to="/register/business" replace />;

  const isSchool = organisation.category === 'school';
  const family = STARTER_FAMILY[organisation.category];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setBusy(true);
    try {
      const body: RegistrationBody = { person, organisation, products: isSchool ? [] : chosen, locale: i18n.language as Language };
      await call(registerEndpoint, { body: draft.logo ? withLogo(body, draft.logo) : body });
      delete draft.person;
      delete draft.organisation;
      delete draft.logo;
      navigate('/register/check-email', { state: { email: person.email } });
    } catch (error) {
      setAlert(explainFailure(error, t));
      setBusy(false);
    }
  };

  return (
    <PublicFrame width={560}>
      <form onSubmit={submit}>
        <Stack>
          {isSchool ? (
            <>
              <PublicHeading title={t('register.defaultsTitle')} text={t('register.defaultsText', { school: organisation.name })} />
              <Text data-testid="school-defaults">{t(`register.defaults.${organisation.schooltype}`)}</Text>
              <Text size="sm" c="dimmed">
                {t('register.defaultsLater')}
              </Text>
            </>
          ) : (
            <>
              <PublicHeading title={t('register.productsTitle')} text={t('register.productsText', { business: organisation.name })} />
              <Checkbox.Group label={t('register.starterProducts')} value={chosen} onChange={setChosen}>
                <SimpleGrid cols={{ base: 1, xs: 2 }} mt="xs">
                  {starterProductsOf(organisation.category).map((product) => (
                    <Checkbox key={product.code} value={product.code} label={t(`register.products.${family}.${product.code}`)} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
              <Text size="sm" c="dimmed">
                {t('register.chosenCount', { count: chosen.length })}
              </Text>
            </>
          )}
          {alert && (
            <Alert color="red" role="alert">
              {alert}
            </Alert>
          )}
          <Button type="submit" fullWidth loading={busy}>
            {t('register.finish')}
          </Button>
          {busy && (
            <Text size="sm" ta="center" role="status">
              {isSchool ? t('register.creatingSchool') : t('register.addingProducts')}
            </Text>
          )}
        </Stack>
      </form>
    </PublicFrame>
  );
}
