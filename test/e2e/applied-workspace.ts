// The workspace file the apply journal and apply undo tests seed a server with before each applies
// its own changed file: one field, group, label, role and template, each of which the changes touch.
export const BEFORE = [
  'fields: [city]',
  'groups: [VIP]',
  'labels:',
  '  - { name: urgent, color: "#ff0000" }',
  'roles:',
  '  - { name: Agent, permissions: [contacts.view] }',
  'templates:',
  '  - { name: order_update, language: en, category: UTILITY, body: { text: "Your order {{1}} is on its way.", variables: ["A-1"] } }',
  '',
].join('\n');
