/** The three sign-up steps, one chunk. */
export { BusinessPage } from './BusinessPage.js';
export { ProductsPage } from './ProductsPage.js';
export { RegisterPage, SignupPage } from './RegisterPage.js';
