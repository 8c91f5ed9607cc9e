import { type Curriculum, classCurriculaEndpoint, curriculumOfClass } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyNotice } from '../../components/EmptyNotice.js';
import { call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import type { RouteDefinition } from '../../lib/pages.js';

/**
 * The class chosen on a comments screen of one curriculum is on the other this year (issue 27
 * point 3): said at once, with a link to the screen its comments are written on, before Next
 * is pressed (the server refuses the class too, naming that screen). The school's choices for
 * the year come from the curricula settings (the query the Curricula page makes), a class not
 * listed has its default.
 */
export function CurriculumNotice({
  form,
  year,
  screen,
  other,
}: {
  form: string | null | undefined;
  year: number | string | null | undefined;
  /** The curriculum this screen is for. */
  screen: Curriculum;
  /** The screen of the other curriculum. */
  other: Pick<RouteDefinition, 'path' | 'title'>;
}) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const wanted = Number(year);
  const validYear = Number.isInteger(wanted) && wanted >= 2000 && wanted <= 2100;
  const curricula = useQuery({
    queryKey: ['curricula', session?.tenant?.id, wanted],
    queryFn: () => call(classCurriculaEndpoint, { query: { year: wanted } }),
    enabled: Boolean(session?.tenant) && validYear && Boolean(form),
    staleTime: 60_000,
  });
  if (!form || !curricula.data) return null;
  const chosen = curricula.data.classes.map(({ form: each, curriculum }) => ({ form: each, curriculum }));
  const curriculum = curriculumOfClass(session?.tenant ?? {}, form, chosen);
  if (curriculum === screen) return null;
  return (
    <EmptyNotice
      text={t(curriculum === 'new' ? 'comments.curriculum.isNew' : 'comments.curriculum.isOld', { form, year: wanted })}
      to={other.path}
      link={t('comments.curriculum.open', { page: t(other.title) })}
      testId="other-curriculum"
    />
  );
}
