/** The sign-in pages, one chunk: whoever opens one soon needs another. */
export { LoginPage } from './LoginPage.js';
export { LogoutPage } from './LogoutPage.js';
export { PasswordResetPage } from './PasswordResetPage.js';
