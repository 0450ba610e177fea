// The template provider's review (decisions.md §6): what WhatsApp's review rejects although the
// API accepts it. One module for both sides: the simulated provider of `wsm serve` decides with
// it, and `wsm templates validate` warns with it before anything is sent.

/** What the review reads of a template: its category, body text and code expiry. */
export interface ReviewedTemplate {
  category?: unknown;
  body?: { text?: unknown } | null;
  codeExpirationMinutes?: unknown;
}

/** One reason the review would reject: the field, the provider's reason code, and why in words. */
export interface ReviewProblem {
  field: string;
  reason: 'INVALID_FORMAT';
  message: string;
}

/** The provider's own bound on a one-time code's validity, tighter than the API's 1..1440. */
const MAX_CODE_EXPIRY_MINUTES = 90;

const PLACEHOLDER = String.raw`\{\{\s*\d+\s*\}\}`;
const STARTS_WITH_PLACEHOLDER = new RegExp(`^${PLACEHOLDER}`);
const ENDS_WITH_PLACEHOLDER = new RegExp(`${PLACEHOLDER}$`);
/** `{{1}}{{2}}` or `{{1}} {{2}}`: the review wants words between variables. */
const ADJACENT_PLACEHOLDERS = new RegExp(`${PLACEHOLDER}\\s*${PLACEHOLDER}`);

/** Every rule of the review the template breaks; none when the review would approve it. */
export function reviewProblems(template: ReviewedTemplate): ReviewProblem[] {
  const problems: ReviewProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, reason: 'INVALID_FORMAT', message });
  const body = typeof template.body?.text === 'string' ? template.body.text.trim() : undefined;
  if (body !== undefined) {
    if (STARTS_WITH_PLACEHOLDER.test(body)) add('body.text', 'the body starts with a placeholder: the review wants words before it');
    if (ENDS_WITH_PLACEHOLDER.test(body)) add('body.text', 'the body ends with a placeholder: the review wants words after it');
    if (ADJACENT_PLACEHOLDERS.test(body)) add('body.text', 'two placeholders stand side by side: the review wants words between them');
  }
  const expiry = Number(template.codeExpirationMinutes);
  if (template.category === 'AUTHENTICATION' && Number.isFinite(expiry) && expiry > MAX_CODE_EXPIRY_MINUTES) {
    add('codeExpirationMinutes', `a code valid for ${expiry} minutes: the provider allows at most ${MAX_CODE_EXPIRY_MINUTES}`);
  }
  return problems;
}
