/** The sign-up's pages, one chunk. */
export { BusinessPage } from './BusinessPage.js';
export { CheckEmailPage } from './CheckEmailPage.js';
export { ProductsPage } from './ProductsPage.js';
export { RegisterPage, SignupPage } from './RegisterPage.js';
export { VerifyPage } from './VerifyPage.js';
