/**
 * The error catalogue (spec §8) and the validation messages (spec §5).
 * The server answers with these texts and the web shows them, so they live here once.
 */
export const ERROR_MESSAGES = {
  401: 'Please login',
  403: 'You are not permitted to access this content',
  404: 'Sorry! the data you are looking for could not be found',
  409: 'This record is in use and cannot be changed that way',
  413: 'The upload is too large',
  422: 'Some fields are not valid',
  429: 'Too many attempts. Please wait a moment and try again.',
  500: 'Internal Server Error',
  503: 'The service is restarting. Please try again in a moment.',
} as const;

export const LOGIN_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  invalidCode: 'Invalid code',
  emailRequired: 'Please enter your email address',
} as const;

export const TENANT_MESSAGES = {
  nameTooShort: 'The name is too short',
  nameTooLong: 'The name is too long',
  nameRequired: 'Please enter the business name',
  categoryRequired: 'Please select a category',
  tenantcodeRequired: 'Please enter the tenant code',
  tenantcodeTaken: 'This tenant code is already taken',
} as const;

export const USER_MESSAGES = {
  nameRequired: 'Please enter your name',
  nameTooShort: 'Too short',
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Invalid email',
  passwordRequired: 'Please enter your password',
  passwordTooShort: 'Too short',
  passwordTooLong: 'The password is too long',
  passwordComposition: 'Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character',
  roleUnknown: 'This role does not exist in this school or business',
} as const;

/** The sign-up rules' messages (spec §5). */
export const REGISTER_MESSAGES = {
  nameRequired: 'Please enter your name',
  tooShort: 'Too short',
  emailInvalid: 'Invalid email',
  emailRequired: 'Please enter your email address',
  telephoneRequired: 'Please enter your telephone',
  telephoneInvalid: 'Invalid telephone number',
  passwordRequired: 'Please enter your password',
  passwordComposition: 'Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character',
  businessNameRequired: 'Please enter your business name',
  businessEmailRequired: 'Please enter your business email address',
  businessTelephoneRequired: 'Please enter your business telephone',
} as const;

/**
 * Every catalogue by name. The web translates a message the server or a shared rule gives
 * by finding its key here (`messages.<catalogue>.<key>` in the locale files), so English stays
 * the one source of the exact texts.
 */
export const MESSAGE_CATALOGUES = {
  errors: ERROR_MESSAGES,
  login: LOGIN_MESSAGES,
  tenant: TENANT_MESSAGES,
  user: USER_MESSAGES,
  register: REGISTER_MESSAGES,
} as const;
