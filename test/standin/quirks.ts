/**
 * What the stand-in may do differently from `wsm serve`, each where the published API leaves it open.
 * Every quirk is off by default; a test turns on the one it is about (`standin.quirks.x = ...`).
 * The stand-in always has the habits of a Laravel service written from the published API alone: only the
 * 26 operations of the published API (no /me, no import get, no template list, no label list...), a route
 * it lacks is a 404 `{message}` without `status`, records carry extra fields and lack those
 * `wsm serve` adds (contact_groups, fields, contacts_count, import counters, rejection_reason),
 * custom field values (`fields`) are ignored, list defaults are Laravel's (15 a page, 10 for contacts).
 */
export interface Quirks {
  /** `per_page` above this is a 422 "The per page field must not be greater than N." */
  perPageMax?: number;
  /** Validation failures answer 400 instead of 422 (the published API does not give the status). */
  validationStatus?: 400 | 422;
  /**
   * The 201 body of a template create (the published API: "response body: not shown"):
   * `envelope` {success, message, data} (default), `bare` (the template itself), `data-null`
   * {data: null}, `empty` {}, `success-template` {success: true, template}.
   */
  templateCreateBody?: 'envelope' | 'bare' | 'data-null' | 'empty' | 'success-template';
  /** Permission arrays hold `{id, name, guard_name}` objects instead of names. */
  permissionObjects?: boolean;
  /** Roles come without their permissions. */
  rolesWithoutPermissions?: boolean;
  /** PUT /labels/{id} requires `name` (the published API lists it as required). */
  labelPutRequiresName?: boolean;
  /** Laravel's simple paginator: no `last_page` and no `total`; `links.next` says whether there is more. */
  simplePaginator?: boolean;
  /** Laravel's cursor paginator: `{data, path, per_page, next_cursor, next_page_url, prev_cursor, prev_page_url}`; `page` is ignored. */
  cursorPaginator?: boolean;
  /** Ids are strings ("12") in every record. */
  stringIds?: boolean;
  /** The next N template syncs answer 500 (provider unavailable), then syncs work again. */
  syncFailures?: number;
  /** How many syncs a PENDING template waits before the provider decides it (default 1). */
  syncRoundsToDecide?: number;
  /** The contact search matches names and e-mails only, not numbers (the published API does not say what it matches). */
  searchSkipsNumbers?: boolean;
  /** The contact search matches a number only whole (`00123` is not found by `123`); names and e-mails by any part. */
  searchNumbersWhole?: boolean;
  /** Laravel's throttle: every `every`-th request answers 429 "Too Many Attempts." with Retry-After. */
  throttle?: { every: number; retryAfterSeconds: number };
  /** A slow service: each request waits this many milliseconds before it is handled. */
  delayMs?: number;
  /** Every request but a GET waits for this promise before it is handled (counted by `pacing()`). */
  holdWrites?: Promise<void>;
}
