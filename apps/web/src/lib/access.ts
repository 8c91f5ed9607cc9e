import { type AppAbility, allows, defineAbilityFor, isAdministrator } from '@mustard/shared';
import { useMemo } from 'react';
import { useAuth } from './auth.js';
import { isProfile } from './session.js';

export interface Access {
  ability: AppAbility;
  isAdmin: boolean;
  can(action: string, subject?: string): boolean;
}

/**
 * What the signed-in user may do in the selected school (spec §6), from the stored profile.
 * Kept apart from the session so that the sign-in pages do not download the rules engine.
 */
export function useAccess(): Access {
  const { session } = useAuth();
  return useMemo(() => {
    const user = session?.user;
    const subject =
      user && isProfile(user) ? { is_admin: user.is_admin, roles: user.roles } : { is_admin: user?.isadmin ?? false, roles: [] };
    const ability = defineAbilityFor(subject);
    return { ability, isAdmin: isAdministrator(subject), can: (action, subjectClass) => allows(ability, action, subjectClass) };
  }, [session]);
}
