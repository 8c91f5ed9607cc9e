import { Alert, Anchor, Button, Checkbox, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Business, RegistrationCategory } from '@mustard/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';

/** Starter products a new business may pick, by the kind of business it is. */
const STARTER_PRODUCTS = {
  school: ['exerciseBooks', 'pens', 'uniforms', 'textbooks', 'mathSets', 'schoolBags'],
  shop: ['sugar', 'soap', 'cookingOil', 'rice', 'salt', 'sodas'],
  farm: ['maizeSeed', 'fertiliser', 'animalFeed', 'milk', 'eggs', 'coffee'],
  hospitality: ['rooms', 'breakfast', 'lunch', 'dinner', 'softDrinks', 'tea'],
  health: ['consultation', 'laboratoryTest', 'paracetamol', 'bandages', 'admission', 'malariaTest'],
  services: ['serviceFee', 'monthlyRent', 'loanApplicationFee', 'transport', 'maintenance', 'training'],
} as const;

const FAMILY: Record<RegistrationCategory, keyof typeof STARTER_PRODUCTS> = {
  school: 'school',
  retail: 'shop',
  products: 'shop',
  stock: 'shop',
  farm: 'farm',
  hotel: 'hospitality',
  restaurant: 'hospitality',
  hospital: 'health',
  microfinance: 'services',
  'property management': 'services',
  services: 'services',
};

/**
 * Sign-up, step three (spec §2 /register/business/products): a few starter products, more
 * later. Creating the account and business is the onboarding release's work; until then the
 * page says plainly that nothing was saved.
 */
export function ProductsPage() {
  const { t } = useTranslation();
  const business = (useLocation().state as { business?: Business } | null)?.business;
  const [chosen, setChosen] = useState<string[]>([]);
  const [submitted, setSubmitted] = useState(false);

  if (!business) {
    return (
      <PublicFrame>
        <Stack>
          <PublicHeading title={t('register.productsTitle')} text={t('register.startFirst')} />
          <Anchor component={Link} to="/register">
            {t('register.startRegistration')}
          </Anchor>
        </Stack>
      </PublicFrame>
    );
  }

  const family = FAMILY[business.category];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
  };

  return (
    <PublicFrame width={560}>
      <form onSubmit={submit}>
        <Stack>
          <PublicHeading title={t('register.productsTitle')} text={t('register.productsText', { business: business.name })} />
          <Checkbox.Group label={t('register.starterProducts')} value={chosen} onChange={setChosen}>
            <SimpleGrid cols={{ base: 1, xs: 2 }} mt="xs">
              {STARTER_PRODUCTS[family].map((product) => (
                <Checkbox key={product} value={product} label={t(`register.products.${family}.${product}`)} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Text size="sm" c="dimmed">
            {t('register.chosenCount', { count: chosen.length })}
          </Text>
          {submitted && (
            <Alert color="blue" role="status" data-testid="registration-not-open">
              {t('register.notOpenYet')}
            </Alert>
          )}
          <Button type="submit" fullWidth disabled={submitted}>
            {t('register.finish')}
          </Button>
        </Stack>
      </form>
    </PublicFrame>
  );
}
