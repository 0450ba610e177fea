// `wsm templates`: declarations only; verbs live in ./templates/<verb>.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, LIST_FLAGS, repeatable, verbSpec } from './declare.js';

export const list = verbSpec({
  name: 'list',
  description: 'list templates (an extension of wsm serve; the published API has no template list)',
  flags: {
    status: { flags: '--status <status>', description: 'only this status: PENDING, APPROVED, REJECTED or another of the provider (any case)' },
    category: { flags: '--category <category>', description: 'only MARKETING, UTILITY or AUTHENTICATION' },
    search: { flags: '--search <q>', description: 'only names containing this' },
    ...LIST_FLAGS,
  },
  examples: ['wsm templates list', 'wsm templates list --status REJECTED -o json', 'wsm templates list --all -q'],
  load: () => import('./templates/list.js'),
});

export function registerTemplates(program: Command): void {
  const templates = program.command('templates').description(SUMMARIES.templates);
  addVerb(templates, list);
  addVerb(templates, {
    name: 'get',
    description: 'show one template',
    configure: (c) => c.argument('<id>', 'template id'),
    examples: ['wsm templates get 12', 'wsm templates get 12 -o json | jq .components'],
    load: () => import('./templates/get.js'),
  });
  addVerb(templates, {
    name: 'create',
    description: 'create a template from a JSON/YAML file or from flags, and submit it for review',
    configure: (c) =>
      c
        .option('--file <path>', 'template as JSON or YAML ("-" for stdin); flags override its fields')
        .option('--name <name>', 'lowercase letters and underscores')
        .option('--language <code>', 'language code such as en or pt_BR')
        .option('--category <category>', 'MARKETING, UTILITY or AUTHENTICATION')
        .option('--body <text>', 'body text; placeholders {{1}}, {{2}}, ...')
        .option('--variable <example>', 'example value of a body placeholder, in order; repeat', repeatable)
        .option('--header-text <text>', 'text header (at most one placeholder)')
        .option('--header-variable <example>', 'example value of the header placeholder', repeatable)
        .option('--header-file <file>', 'media header file (JPEG/PNG image, MP4 video, PDF document); sends multipart')
        .option('--header-type <type>', 'image, video or document (default: from the file extension)')
        .option('--footer <text>', 'footer, at most 60 characters, no emojis')
        .option('--button <TYPE:text[:value]>', 'QUICK_REPLY:text, URL:text:https://..., PHONE_NUMBER:text:+1...; repeat, at most 3', repeatable)
        .option('--unsubscribe-button', 'MARKETING only')
        .option('--block-button', 'MARKETING only')
        .option('--add-security-recommendation', 'AUTHENTICATION only')
        .option('--code-expiration-minutes <n>', 'AUTHENTICATION only: 1 to 1440')
        .option('--copy-code-button', 'AUTHENTICATION only'),
    examples: [
      'wsm templates create --file welcome.yaml',
      'wsm templates create --name order_ready --language en --category UTILITY --body "Hi {{1}}, order {{2}} is ready" --variable Ann --variable 1234',
      'wsm templates create --file promo.json --header-file banner.png',
      'wsm templates create --name login_code --language en --category AUTHENTICATION --code-expiration-minutes 10 --copy-code-button',
    ],
    load: () => import('./templates/create.js'),
  });
  deleteVerb(templates, 'template', 'templates', () => import('./templates/delete.js'));
  addVerb(templates, {
    name: 'sync',
    description: 'pull approval statuses from the provider for PENDING templates',
    configure: (c) =>
      c
        .option('--wait', 'repeat the sync until no template is PENDING (or every tracked one is decided); retries server failures until the timeout')
        .option('--timeout <duration>', 'with --wait: give up after this long (exit 6)', '30m')
        .option('--interval <duration>', 'with --wait: time between syncs', '5s')
        .option('--fail-on-rejected', 'exit 7 naming each tracked template that ended REJECTED')
        .option('--template <id>', 'track this template (repeat for several); default: those PENDING before the sync, where the server lists templates', repeatable)
        .option('--templates-from <file>', 'track the template ids in this file, one a line ("-" for stdin), as `templates create -q` prints them'),
    examples: [
      'wsm templates sync',
      'wsm templates sync --wait --timeout 30m --fail-on-rejected',
      'wsm templates create --file welcome.yaml -q >> ids.txt && wsm templates sync --wait --fail-on-rejected --templates-from ids.txt',
      'wsm templates sync --wait --fail-on-rejected --template 11 --template 12 -o json',
    ],
    load: () => import('./templates/sync.js'),
  });
  addVerb(templates, {
    name: 'validate',
    description: "check a template file offline against the create rules, and warn where the provider's review would reject it (no network)",
    configure: (c) =>
      c.argument('<file>', 'template as JSON or YAML ("-" for stdin)').option('--strict', "exit 1 when the provider's review would reject the template"),
    examples: ['wsm templates validate welcome.yaml', 'for f in templates/*.yaml; do wsm templates validate --strict "$f" || exit 1; done'],
    load: () => import('./templates/validate.js'),
  });
}
