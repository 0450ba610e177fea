// A stored contact as the hold tests make them: a number, a name and one custom field `code`
// (none when empty), the rest as the command tests' harness makes any contact.
import type { Contact } from '../../src/api/schemas/index.js';
import { contact } from './commands/harness.js';

export const heldContact = (id: number, number: string, name: string, code: string): Contact =>
  contact(id, { number, name, fields: code === '' ? {} : { code } }) as Contact;
