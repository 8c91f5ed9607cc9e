import { type ComponentType, lazy } from 'react';
import { loadScreenTexts } from '../lib/i18n.js';

/*
 * The public pages and the lazy-page helpers: all a cold /login downloads of the page registry.
 * The signed-in pages' registry (registry.tsx, business-registry.tsx) travels with the signed-in
 * frame's chunk, so a page added there weighs nothing on /login.
 */

/** A page component from a module that exports it by name, loaded when first shown. */
export function page<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType): ComponentType {
  return lazy(async () => ({ default: pick(await load()) }));
}

/** A screen behind the dashboard: its code and its texts (lib/locale-parts.ts) arrive together. */
export function screen<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType): ComponentType {
  return lazy(async () => {
    const [module] = await Promise.all([load(), loadScreenTexts()]);
    return { default: pick(module) };
  });
}

const auth = () => import('../features/auth/pages.js');
const register = () => import('../features/register/pages.js');
const status = () => import('../features/public/StatusPages.js');
const join = () => import('../features/auth/JoinPage.js');
const passwordReset = () => import('../features/password-reset/PasswordResetPage.js');

/** Public pages of spec §2 (the plain layout). */
export const PUBLIC_PAGES: Record<string, ComponentType> = {
  '/login': page(auth, (m) => m.LoginPage),
  '/logout': page(auth, (m) => m.LogoutPage),
  // Its texts are the screens' part of the locale files: none of them weighs on /login.
  '/auth/password/reset': screen(passwordReset, (m) => m.PasswordResetPage),
  '/join': page(join, (m) => m.JoinPage),
  // The sign-up's texts are the screens' part of the locale files: none of them weighs on /login.
  '/register': screen(register, (m) => m.RegisterPage),
  '/signup': screen(register, (m) => m.SignupPage),
  '/register/business': screen(register, (m) => m.BusinessPage),
  '/register/business/products': screen(register, (m) => m.ProductsPage),
  '/register/check-email': screen(register, (m) => m.CheckEmailPage),
  '/register/verify': screen(register, (m) => m.VerifyPage),
  '/coming-soon': page(status, (m) => m.ComingSoonPage),
  '/maintenance': page(status, (m) => m.MaintenancePage),
};
