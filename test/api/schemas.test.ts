import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  check,
  contactCreateBody,
  normalizeNumber,
  partnerPermissionsBody,
  placeholders,
  templateCreateBody,
  paginationQuery,
} from '../../src/api/schemas/index.js';

describe('the contract', () => {
  it('normalises phone numbers and keeps only 7 to 15 digits', () => {
    expect(normalizeNumber(' +1 (415) 555-01.23 ')).toBe('14155550123');
    expect(check(contactCreateBody, { number: '+44 20 7946 0958' })).toEqual({ ok: true, value: { number: '442079460958' } });
    expect(check(contactCreateBody, { number: '12345' })).toEqual({
      ok: false,
      errors: { number: ['The number must be a phone number of 7 to 15 digits.'] },
    });
  });

  it('words a positive-id failure as greater than 0', () => {
    expect(check(contactCreateBody, { number: '5551234567', contact_groups: [3, -2] })).toEqual({
      ok: false,
      errors: { 'contact_groups.1': ['The contact groups field must be greater than 0.'] },
    });
  });

  it('accepts multipart text for booleans and group ids', () => {
    // The form reader makes `contact_groups[0]=3&contact_groups[1]=4` an array; the schema takes only that.
    const parsed = check(contactCreateBody, { number: '5551234567', status: '0', contact_groups: ['3', '4'] });
    expect(parsed).toEqual({ ok: true, value: { number: '5551234567', status: false, contact_groups: [3, 4] } });
  });

  it('refuses an object, a string or a number where a list belongs, and a number where a boolean does', () => {
    for (const contact_groups of [{}, { 0: 3 }, '3', 3])
      expect(check(contactCreateBody, { number: '5551234567', contact_groups })).toEqual({
        ok: false,
        errors: { contact_groups: ['The contact groups field must be an array.'] },
      });
    expect(check(contactCreateBody, { number: '5551234567', status: 0 })).toMatchObject({
      ok: false,
      errors: { status: [expect.any(String)] },
    });
  });

  it('applies every template rule with dotted keys', () => {
    const result = check(templateCreateBody, {
      name: 'Welcome',
      language: 'english',
      category: 'UTILITY',
      body: { text: 'Hi {{2}}' },
      footer: 'x'.repeat(61),
      buttons: [
        { type: 'URL', text: 'Go', url: 'ftp://example.com' },
        { type: 'PHONE_NUMBER', text: 'Call', phone_number: '555' },
        { type: 'QUICK_REPLY', text: 'Yes' },
      ],
      unsubscribeButton: true,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(
      ['body.text', 'body.variables', 'buttons.0.url', 'buttons.1.phone_number', 'footer', 'language', 'name', 'unsubscribeButton'].sort(),
    );
    const four = Array.from({ length: 4 }, (_, i) => ({ type: 'QUICK_REPLY', text: `Option ${i}` }));
    expect(check(templateCreateBody, { name: 'four', language: 'en', category: 'UTILITY', body: { text: 'Hi' }, buttons: four })).toEqual({
      ok: false,
      errors: { buttons: ['The buttons field must not have more than 3 items.'] },
    });
  });

  it('keeps AUTHENTICATION templates to their own fields', () => {
    expect(check(templateCreateBody, { name: 'otp', language: 'en', category: 'AUTHENTICATION', codeExpirationMinutes: 10 }).ok).toBe(true);
    const withBody = check(templateCreateBody, {
      name: 'otp',
      language: 'en',
      category: 'AUTHENTICATION',
      body: { text: 'x' },
      codeExpirationMinutes: 1441,
    });
    expect(withBody).toEqual({
      ok: false,
      errors: {
        codeExpirationMinutes: ['The codeExpirationMinutes field must not be greater than 1440.'],
        body: ['The body field must not be sent for AUTHENTICATION templates.'],
      },
    });
  });

  it('names the bad index of a partner permission list', () => {
    expect(check(partnerPermissionsBody, { permissions: ['contacts.view', 'contacts.fly'] })).toEqual({
      ok: false,
      errors: { 'permissions.1': ['The selected permission is invalid.'] },
    });
  });

  it('finds placeholders in order and requires one example each (generated texts)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 8 }).filter((s) => !s.includes('{') && !s.includes('}')),
          { minLength: 2, maxLength: 5 },
        ),
        (words) => {
          const text = words.map((w, i) => (i === 0 ? `a${w}` : `${w} {{${i}}} x`)).join(' ');
          const count = words.length - 1;
          expect(placeholders(text)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
          const body = { name: 'gen', language: 'en', category: 'MARKETING' as const, body: { text, variables: Array(count).fill('v') } };
          expect(check(templateCreateBody, body).ok).toBe(true);
          expect(check(templateCreateBody, { ...body, body: { text } }).ok).toBe(false);
        },
      ),
      { seed: 42, numRuns: 200 },
    );
  });

  it('bounds pagination: page >= 1, per_page 1..100, integers only', () => {
    expect(check(paginationQuery, {})).toEqual({ ok: true, value: { page: 1, per_page: 10 } });
    for (const bad of [{ page: '0' }, { per_page: '101' }, { per_page: 'x' }, { page: '1.5' }]) {
      expect(check(paginationQuery, bad).ok).toBe(false);
    }
  });
});
