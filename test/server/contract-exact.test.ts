// The document and the server say the same: a JSON number is no boolean, an e-mail domain label
// does not end with a hyphen (pattern and `format: email` agree), and a form's id is never 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { multipart, templatesUrl, utility } from './template-fixtures.js';

let h: Harness;
let doc: {
  paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, any> } }> } }>>;
};
beforeAll(async () => {
  h = await createHarness();
  doc = (await h.call({ method: 'GET', url: '/api/v3/openapi.json', token: null })).json();
});
afterAll(() => h?.close());

const propertyOf = (path: string, method: string, name: string, type = 'application/json') =>
  doc.paths[path][method].requestBody.content[type].schema.properties[name];

describe('what the document says is what the server takes', () => {
  it('a JSON 0 or 1 where the document says boolean: 422 naming the field, as the document says', async () => {
    expect(propertyOf('/workspaces/{workspace}/contacts', 'post', 'status').type).toBe('boolean');
    const contact = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/contacts`,
      payload: { number: '5551234000', status: 0 },
    });
    expect(contact.statusCode).toBe(422);
    expect(contact.json().errors).toEqual({ status: ['The status field must be a boolean.'] });
    const template = await h.call({ method: 'POST', url: templatesUrl(h), payload: { ...utility('zero_copy'), copyCodeButton: 0 } });
    expect(template.statusCode).toBe(422);
    expect(template.json().errors.copyCodeButton).toContain('The copyCodeButton field must be a boolean.');
  });

  it('an e-mail whose domain label ends with a hyphen: the pattern and the server refuse it alike', async () => {
    const email = propertyOf('/workspaces/{workspace}/users', 'post', 'email');
    expect(email.format).toBe('email');
    const pattern = new RegExp(email.pattern);
    for (const [address, valid] of [
      ['a@b-.com', false],
      ['a@-b.com', false],
      ['ana@ex-ample.co.uk', true],
    ] as const) {
      expect(pattern.test(address), address).toBe(valid);
      const answer = await h.call({
        method: 'POST',
        url: `/api/v3/workspaces/${h.ws}/contacts`,
        payload: { number: '5551234001', email: address },
      });
      expect(answer.statusCode === 422 ? answer.json().errors.email : undefined, address).toEqual(
        valid ? undefined : ['The email field must be a valid email address.'],
      );
    }
  });

  it("a form's id: the document's pattern refuses 0 as the server does", async () => {
    const items = propertyOf('/workspaces/{workspace}/contacts', 'post', 'contact_groups', 'multipart/form-data').items;
    expect(new RegExp(items.pattern).test('0')).toBe(false);
    expect(new RegExp(items.pattern).test('12')).toBe(true);
    const answer = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/contacts`,
      ...multipart([
        ['number', '5551234002'],
        ['contact_groups[]', '0'],
      ]),
    });
    expect(answer.statusCode).toBe(422);
    expect(Object.keys(answer.json().errors)).toEqual(['contact_groups.0']);
  });
});
