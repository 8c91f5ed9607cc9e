import { describe, expect, it } from 'vitest';
import { BusinessSchema, firstErrors, LoginEmailSchema, RegisterSchema } from './register.js';

const valid = { name: 'Grace Nakato', email: 'grace@kps.ug', telephone: '+256 772 123456', password: 'Kampala#2026' };
const errorsOf = (input: unknown) => {
  const result = RegisterSchema.safeParse(input);
  return result.success ? {} : firstErrors(result.error);
};

describe('spec §5 rules', () => {
  it('login: the email is required', () => {
    const result = LoginEmailSchema.safeParse({ email: '  ' });
    expect(result.error && firstErrors(result.error)).toEqual({ email: 'Please enter your email address' });
  });

  it('register: accepts a valid form', () => {
    expect(RegisterSchema.safeParse(valid).success).toBe(true);
  });

  it.each([
    [{ name: '' }, 'name', 'Please enter your name'],
    [{ name: 'Al' }, 'name', 'Too short'],
    [{ email: '' }, 'email', 'Please enter your email address'],
    [{ email: 'grace@' }, 'email', 'Invalid email'],
    [{ telephone: '' }, 'telephone', 'Please enter your telephone'],
    [{ telephone: 'call me' }, 'telephone', 'Invalid telephone number'],
    [{ password: '' }, 'password', 'Please enter your password'],
    [{ password: 'Ab1!' }, 'password', 'Too short'],
    [
      { password: 'kampala#2026' },
      'password',
      'Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character',
    ],
    [
      { password: 'KAMPALA#2026' },
      'password',
      'Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character',
    ],
    [
      { password: 'Kampala#xyz' },
      'password',
      'Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character',
    ],
    [
      { password: 'Kampala2026' },
      'password',
      'Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character',
    ],
  ])('register: %j -> %s "%s"', (change, field, message) => {
    expect(errorsOf({ ...valid, ...change })[field]).toBe(message);
  });

  it('register: a name or an address with a line break is refused (it goes into a mail); every field is bounded', () => {
    expect(errorsOf({ ...valid, name: 'Grace\nBcc: all@example.com' }).name).toBe('This text contains characters that cannot be saved');
    expect(errorsOf({ ...valid, email: 'grace@kps.ug\r\nBcc: all@example.com' }).email).toBe('Invalid email');
    expect(errorsOf({ ...valid, name: 'G'.repeat(101) }).name).toBe('The name is too long');
    expect(errorsOf({ ...valid, password: `Aa1!${'x'.repeat(125)}` }).password).toBe('The password is too long');
  });

  it('register: local and international telephone numbers are accepted', () => {
    for (const telephone of ['0772123456', '0772 123 456', '+256772123456', '0414-123456']) {
      expect(errorsOf({ ...valid, telephone }).telephone).toBeUndefined();
    }
  });

  it.each([
    [{ name: '' }, 'name', 'Please enter your business name'],
    [{ name: 'Ab' }, 'name', 'Too short'],
    [{ email: '' }, 'email', 'Please enter your business email address'],
    [{ telephone: '' }, 'telephone', 'Please enter your business telephone'],
    [{ telephone: '12' }, 'telephone', 'Invalid telephone number'],
    [{ category: '' }, 'category', 'Please select a category'],
    [{ category: 'casino' }, 'category', 'Please select a category'],
  ])('business: %j -> %s "%s"', (change, field, message) => {
    const result = BusinessSchema.safeParse({
      name: 'Mustard Stationers',
      email: 'sales@shop.ug',
      telephone: '0772123456',
      category: 'retail',
      country: 'Uganda',
      ...change,
    });
    expect(result.error && firstErrors(result.error)[field]).toBe(message);
  });

  it('business: a complete form passes, and the country defaults to Uganda', () => {
    const result = BusinessSchema.parse({
      name: 'Kampala Stationers',
      email: 'sales@shop.ug',
      telephone: '+256 772 123456',
      category: 'school',
    });
    expect(result.country).toBe('Uganda');
    expect(result.schooltype).toBe('primary');
  });

  it('business: a name is a tenant name, at most 25 characters', () => {
    const result = BusinessSchema.safeParse({ name: 'x'.repeat(26), email: 'a@b.ug', telephone: '0772123456', category: 'retail' });
    expect(result.error && firstErrors(result.error).name).toBe('The name is too long');
  });
});
