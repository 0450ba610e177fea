// `wsm templates`: each verb's declaration; its run lives in ./templates/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, LIST_FLAGS, verbSpec, WAIT_TIMEOUT_FLAG } from './declare.js';

export const TEMPLATE_LIST_FLAGS = {
  status: {
    flags: '--status <status>',
    description: 'only this status: PENDING, APPROVED, REJECTED or another of the provider (any case)',
  },
  category: { flags: '--category <category>', description: 'only MARKETING, UTILITY or AUTHENTICATION' },
  search: { flags: '--search <q>', description: 'only names containing this' },
  ...LIST_FLAGS,
} as const;

export const list = verbSpec({
  name: 'list',
  description: 'list templates (an extension of wsm serve; the published API has no template list)',
  flags: TEMPLATE_LIST_FLAGS,
  examples: ['wsm templates list', 'wsm templates list --status REJECTED -o json', 'wsm templates list --all -q'],
  load: () => import('./templates/list.js'),
});

export const TEMPLATE_CREATE_FLAGS = {
  file: { flags: '--file <path>', description: 'template as JSON or YAML ("-" for stdin); flags override its fields' },
  name: { flags: '--name <name>', description: 'lowercase letters and underscores' },
  language: { flags: '--language <code>', description: 'language code such as en or pt_BR' },
  category: { flags: '--category <category>', description: 'MARKETING, UTILITY or AUTHENTICATION' },
  body: { flags: '--body <text>', description: 'body text; placeholders {{1}}, {{2}}, ...' },
  variable: { flags: '--variable <example>', description: 'example value of a body placeholder, in order; repeat', repeatable: true },
  headerText: { flags: '--header-text <text>', description: 'text header (at most one placeholder)' },
  headerVariable: { flags: '--header-variable <example>', description: 'example value of the header placeholder', repeatable: true },
  headerFile: {
    flags: '--header-file <file>',
    description: 'media header file (JPEG/PNG image, MP4 video, PDF document); sends multipart',
  },
  headerType: { flags: '--header-type <type>', description: 'image, video or document (default: from the file extension)' },
  footer: { flags: '--footer <text>', description: 'footer, at most 60 characters, no emojis' },
  button: {
    flags: '--button <TYPE:text[:value]>',
    description: 'QUICK_REPLY:text, URL:text:https://..., PHONE_NUMBER:text:+1...; repeat, at most 3',
    repeatable: true,
  },
  unsubscribeButton: { flags: '--unsubscribe-button', description: 'MARKETING only' },
  blockButton: { flags: '--block-button', description: 'MARKETING only' },
  addSecurityRecommendation: { flags: '--add-security-recommendation', description: 'AUTHENTICATION only' },
  codeExpirationMinutes: { flags: '--code-expiration-minutes <n>', description: 'AUTHENTICATION only: 1 to 1440' },
  copyCodeButton: { flags: '--copy-code-button', description: 'AUTHENTICATION only' },
} as const;

export const create = verbSpec({
  name: 'create',
  description: 'create a template from a JSON/YAML file or from flags, and submit it for review',
  flags: TEMPLATE_CREATE_FLAGS,
  examples: [
    'wsm templates create --file welcome.yaml',
    'wsm templates create --name order_ready --language en --category UTILITY --body "Hi {{1}}, order {{2}} is ready" --variable Ann --variable 1234',
    'wsm templates create --file promo.json --header-file banner.png',
    'wsm templates create --name login_code --language en --category AUTHENTICATION --code-expiration-minutes 10 --copy-code-button',
  ],
  load: () => import('./templates/create.js'),
});

export const VALIDATE_FLAGS = {
  strict: { flags: '--strict', description: "exit 2 when the provider's review would reject the template" },
} as const;

export const validate = verbSpec({
  name: 'validate',
  description: "check a template file offline against the create rules, and warn where the provider's review would reject it (no network)",
  args: [['<file>', 'template as JSON or YAML ("-" for stdin)']],
  flags: VALIDATE_FLAGS,
  examples: ['wsm templates validate welcome.yaml', 'for f in templates/*.yaml; do wsm templates validate --strict "$f" || exit 1; done'],
  load: () => import('./templates/validate.js'),
});

export const get = verbSpec({
  name: 'get',
  description: 'show one template',
  args: [['<id>', 'template id']],
  examples: ['wsm templates get 12', 'wsm templates get 12 -o json | jq .components'],
  load: () => import('./templates/get.js'),
});

export const SYNC_FLAGS = {
  wait: {
    flags: '--wait',
    description:
      'repeat the sync until no template is PENDING (or every tracked one is decided); retries server failures until the timeout',
  },
  timeout: WAIT_TIMEOUT_FLAG,
  interval: { flags: '--interval <duration>', description: 'with --wait: time between syncs', default: '5s' },
  failOnRejected: { flags: '--fail-on-rejected', description: 'exit 7 naming each tracked template that ended REJECTED' },
  template: {
    flags: '--template <id>',
    description: 'track this template (repeat for several); default: those PENDING before the sync, where the server lists templates',
    repeatable: true,
  },
  templatesFrom: {
    flags: '--templates-from <file>',
    description: 'track the template ids in this file, one a line ("-" for stdin), as `templates create -q` prints them',
  },
} as const;

export const sync = verbSpec({
  name: 'sync',
  description: 'pull approval statuses from the provider for PENDING templates',
  flags: SYNC_FLAGS,
  examples: [
    'wsm templates sync',
    'wsm templates sync --wait --timeout 30m --fail-on-rejected',
    'wsm templates create --file welcome.yaml -q >> ids.txt && wsm templates sync --wait --fail-on-rejected --templates-from ids.txt',
    'wsm templates sync --wait --fail-on-rejected --template 11 --template 12 -o json',
  ],
  load: () => import('./templates/sync.js'),
});

export function registerTemplates(program: Command): void {
  const templates = program.command('templates').description(SUMMARIES.templates);
  addVerb(templates, list);
  addVerb(templates, get);
  addVerb(templates, create);
  deleteVerb(templates, 'template', 'templates', () => import('./templates/delete.js'));
  addVerb(templates, sync);
  addVerb(templates, validate);
}
