import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type Register, RegisterSchema } from '@mustard/shared';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSchemaForm } from '../../lib/forms.js';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';
import { draft } from './draft.js';

/**
 * Sign-up, step one (spec §2 /register, rules of §5): the person who will run the school or
 * business. `/signup` shows the same form in the cover frame.
 */
export function RegisterPage({ cover = false }: { cover?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { form, field } = useSchemaForm<Register>(RegisterSchema, draft.person ?? { name: '', email: '', telephone: '', password: '' });

  const next = (values: Register) => {
    draft.person = RegisterSchema.parse(values);
    navigate('/register/business');
  };

  return (
    <PublicFrame cover={cover}>
      <form onSubmit={form.onSubmit(next)} noValidate>
        <Stack>
          <PublicHeading title={t('register.title')} text={t('register.text')} />
          <TextInput label={t('register.name')} autoComplete="name" withAsterisk {...field('name')} />
          <TextInput label={t('register.email')} type="email" autoComplete="email" withAsterisk {...field('email')} />
          <TextInput
            label={t('register.telephone')}
            type="tel"
            autoComplete="tel"
            placeholder="+256 772 123456"
            withAsterisk
            {...field('telephone')}
          />
          <PasswordInput
            label={t('register.password')}
            description={t('register.passwordHint')}
            autoComplete="new-password"
            withAsterisk
            {...field('password')}
          />
          <Button type="submit" fullWidth>
            {t('register.continue')}
          </Button>
          <Text size="sm" ta="center">
            {t('register.haveAccount')}{' '}
            <Anchor component={Link} to="/login">
              {t('auth.signIn')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </PublicFrame>
  );
}

export function SignupPage() {
  return <RegisterPage cover />;
}
