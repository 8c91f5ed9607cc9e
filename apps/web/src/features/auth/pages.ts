/** The sign-in pages, one chunk: whoever opens one soon needs another (the password reset is a chunk of its own). */
export { LoginPage } from './LoginPage.js';
export { LogoutPage } from './LogoutPage.js';
