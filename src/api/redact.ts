// Masking a token in text without garbling the text: the token is replaced only where it stands
// as a token, not inside a longer word (with `--token t`, "route" must stay "route"). No imports:
// the transport and the CLI's error handler (loaded at start-up) both use it.

/** Characters a bearer token is made of: a match next to one of them is part of a longer word. */
const TOKEN_CHAR = '[A-Za-z0-9_\\-.~+]';
/** Shorter strings are words, not secrets: masking them would only garble messages. */
const MIN_SECRET_LENGTH = 4;

export function redactSecret(text: string, secret: string | undefined, mask = '***'): string {
  if (!secret || secret.length < MIN_SECRET_LENGTH || !text.includes(secret)) return text;
  const literal = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(?<!${TOKEN_CHAR})${literal}(?!${TOKEN_CHAR})`, 'g'), mask);
}
