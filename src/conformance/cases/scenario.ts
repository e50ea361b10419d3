import type { Operation } from '../../contract/operation.js';
import type { NextCursor } from '../../contract/resources/resource.js';

/**
 * `default` sends the run's key, `none` no header, `invalid` a well-formed key the target cannot know; `raw` is
 * sent as the whole Authorization header; `fromKey` is made from the run's key (the key under another scheme,
 * altered...) and is recorded as `shown`, since it holds most of the key.
 */
/**
 * The credential a step sends. 'default': the run's key, where the operation's security scheme puts it (none for an
 * operation that needs none); 'none': nothing; 'invalid', `value` and `alter`: a random key, a literal one, or one
 * made from the run's key (`shown` says how), where the scheme puts it; `raw` and `fromKey`: an Authorization
 * header as written (a scenario file's auth) or made from the run's key, whatever the scheme.
 */
export type AuthChoice =
  | 'default'
  | 'none'
  | 'invalid'
  | { readonly value: string }
  | { readonly alter: (key: string) => string; readonly shown: string }
  | { readonly raw: string }
  | { readonly fromKey: (key: string) => string; readonly shown: string };

/** A status, a list of statuses, or a range such as '2XX'. */
export type StatusExpectation = readonly (number | string)[];

export interface StepExpectation {
  readonly status?: StatusExpectation;
  /** A subset the body must contain: objects by key, arrays element by element with the same length. */
  readonly body?: unknown;
  /** A subset every element of an array body must contain. */
  readonly bodyEach?: unknown;
  /**
   * A subset at least one element of an array body must contain, when the body has fewer than
   * `whenShorterThan` items: a shorter page is the whole list, a full one may hold the item on a later page.
   */
  readonly bodyIncludes?: { readonly item: unknown; readonly whenShorterThan?: number };
  readonly bodyLength?: { readonly min?: number; readonly max?: number; readonly equals?: number };
  /**
   * Where the array that bodyEach, bodyIncludes and bodyLength read is, for a list that wraps its records
   * (`['items']` of `{ items, next }`); the body itself when absent.
   */
  readonly listAt?: readonly string[];
  /** Fields the body must not hold with these exact values (a client-sent id never becomes the resource's id). */
  readonly bodyNot?: Readonly<Record<string, unknown>>;
  /** Header name (lower-case) → exact value, or true for "present". */
  readonly headers?: Readonly<Record<string, string | true>>;
  /** What an earlier write of the case must have done, judged by the check it names (checks/resource-effects.ts). */
  readonly effect?: ResourceEffect;
  /** What a conditional request must get (RFC 9110 §13), judged by the check it names (not-modified, etag-changes, precondition-enforced in judge/checks/). */
  readonly conditional?: ConditionalExpectation;
  /**
   * The list is filtered to the case's own records, this many: its documented count header (count-header.ts) must
   * say exactly this (total-count).
   */
  readonly totalCount?: number;
  /**
   * The GET this HEAD repeats (its status and headers): a HEAD the target serves answers the same status class and
   * Content-Type; with `sameContent`, the GET read what no case changes in between, so a Content-Length both send
   * is the same.
   */
  readonly asGet?: { readonly status: unknown; readonly headers: unknown; readonly sameContent?: true };
  /**
   * A PUT at an id the run drew for it (rule 11): it makes the record, so a success other than a documented 201 is
   * noted (judge/open-choices.ts), never failed.
   */
  readonly creates?: true;
}

/**
 * A conditional request of the case's own record. 'not-modified': a GET whose If-None-Match names the tag the record
 * has, answered 304 where `documented` (else 304 or 200). 'etag-changes': a GET after a write that changed the
 * record: not 304 for the tag it had (`was`), and another tag; judged only where the write's status (`writeStatus`,
 * captured) was 2xx. 'precondition-enforced': a write whose If-Match names
 * a tag the record does not have ('stale') is refused with 412, one naming its current tag is applied, and where If-Match is
 * required and 428 documented, one without it ('none') is refused with 428.
 */
export type ConditionalExpectation =
  | { readonly check: 'not-modified'; readonly documented: boolean }
  | { readonly check: 'etag-changes'; readonly was: string; readonly writeStatus: unknown }
  | { readonly check: 'precondition-enforced'; readonly sent: 'stale' | 'current' | 'none' };

/** The effect checks of a resource's writes (docs/resources.md, "Effect checks in the runner"). */
export type EffectCheckId =
  | 'created-readable'
  | 'update-took-effect'
  | 'deleted-is-gone'
  | 'delete-repeatable'
  | 'refusal-leaves-no-trace'
  | 'parent-scoped'
  | 'page-advances'
  | 'cursor-walk'
  | 'patch-null-removes'
  | 'put-replaces'
  | 'others-untouched';

export interface ResourceEffect {
  readonly check: EffectCheckId;
  /** The answer's status must be one of these (a range such as '4XX' allowed). */
  readonly status?: StatusExpectation;
  /** Statuses that fail the check (a second DELETE fails only on '5XX'). */
  readonly statusNot?: StatusExpectation;
  /** A subset the record must contain. */
  readonly body?: unknown;
  /** The list answer must hold (present) or lack the record whose `field` is `value`. */
  readonly listed?: {
    readonly field: string;
    readonly value: unknown;
    readonly present: boolean;
    /** Where the array is in the list's answer (`['items']`); empty for a bare array. */
    readonly pointer: readonly string[];
    /** A page this long may hold the record on a later page: its absence then proves nothing. */
    readonly pageSize: number | undefined;
  };
  /**
   * The record must lack `field`, or hold one of `allowed` (the schema's default, null where the schema allows it);
   * judged only when the write that took it away was answered 2xx (`writeStatus`, its captured status).
   */
  readonly absent?: {
    readonly field: string;
    /** The object field that holds `field`, when it is a key of a map (`labels`) rather than of the record. */
    readonly within?: string;
    /** The value the record had before the write took the field away: still showing it is the failure. */
    readonly was: unknown;
    readonly allowed: readonly unknown[];
    readonly writeStatus: unknown;
  };
  /**
   * Judged only when an earlier write of the case was answered one of `in` (`status`, its captured status): a
   * second create of a taken client-named id leaves the record as it was only where it was refused.
   */
  readonly onlyAfter?: { readonly status: unknown; readonly in: StatusExpectation };
  /**
   * A second page of records: none of its records' `field` may be on the first (`previous`, the first page's
   * answer), when both pages hold `size` records they must differ, and after a full first page it holds as many as
   * `size` of the `rest`: the records that match past the first page.
   */
  readonly nextPage?: {
    readonly field: string;
    readonly pointer: readonly string[];
    readonly previous: unknown;
    readonly size: number;
    readonly rest: number;
  };
  /** A page of a cursor walk (Step.walk): the runner adds `page` as it walks. */
  readonly walkPage?: WalkPage;
}

/** What a page of a cursor walk is judged by: the generator sets the first four, the runner the rest. */
export interface WalkPage {
  readonly field: string;
  readonly pointer: readonly string[];
  /** At least this many distinct records must be listed by the walk's end (the case created them). */
  readonly atLeast: number;
  /**
   * Only the case writes to the listed collection (nested under a parent of its own, or filtered by a value of its
   * own): any repeat, and a walk that does not end, fail. Elsewhere other cases' writes may shift records across
   * pages: only the first page answered again by a third page or later fails, and the rest is noted not verified.
   */
  readonly ownCollection: boolean;
  /** The contract promises the walk lists every record: records missing at its end fail, else are noted. */
  readonly promisesAll: boolean;
  readonly page?: {
    /** 1-based. */
    readonly number: number;
    /** The ids of the records earlier pages listed (a view, not a copy: the walk may list many). */
    readonly earlier: ListedIds;
    /** The ids of the first page's records, in order. */
    readonly first: readonly string[];
    /** This answer carries no next cursor: the walk ends here. */
    readonly last: boolean;
    /** The walk stops here with a next cursor still given: its cap of pages was reached. */
    readonly capped: boolean;
  };
}

/** Ids listed so far, as a walk knows them: whether one was, and how many distinct ones were. */
export interface ListedIds {
  readonly has: (id: string) => boolean;
  readonly size: number;
}

/** A list read page after page, each page with the cursor its previous answer carried (the pagination kind). */
export interface CursorWalk {
  readonly parameter: string;
  readonly next: NextCursor;
  readonly maxPages: number;
}

/** The id field a create's Location fills in, and whether the id is a number (`/notes/7` → 7, not "7"). */
export interface LocationId {
  readonly field: string;
  readonly numeric: boolean;
}

/** Runs the step `count` times, less the value of `less` (a template resolving to a number or an array). */
export interface Repeat {
  readonly count: number;
  readonly less?: string;
  /**
   * A value for each repetition, by index, read as `{{repeat.each}}`: generated creates of a client-named id (a
   * book's ISBN) send a fresh one each, where one body sent twice would name one record twice.
   */
  readonly each?: readonly unknown[];
}

export interface Step {
  /** 1-based, as people count them in reports. */
  readonly index: number;
  readonly line: number;
  readonly operation: Operation;
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, unknown>>;
  /** A JSON body (sent with Content-Type: application/json unless headers say otherwise) or a raw one (sent as is). */
  readonly body: { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'raw'; readonly text: string } | undefined;
  readonly auth: AuthChoice;
  readonly expect: StepExpectation;
  /** Saves the response under this name for `{{name.body.id}}` in later steps. */
  readonly capture: string | undefined;
  /**
   * A create's capture: where its answer carries no body with the id (a 201 with only a Location), the id its
   * Location names, its last path segment, is captured as `body.<field>` (cases/location-id.ts).
   */
  readonly locationId?: LocationId;
  /** Set when the contract leaves the answer open: the exchange is recorded as an observation, never a failure. */
  readonly observe: string | undefined;
  readonly repeat: Repeat | undefined;
  /**
   * The repetitions go out this many at a time rather than one after another (a burst of creates, a page's worth of
   * filler), each judged as it comes back; on the wire they still share the run's --concurrency connections.
   */
  readonly parallel?: number;
  /**
   * The step only prepares the case (an authenticated request that opens a connection the next step reuses):
   * its answer is checked for being an answer and not a server error; the rest is other cases' to judge.
   */
  readonly setup?: boolean;
  /**
   * The path goes out spelled otherwise than the contract writes it (`/pets/`, `/PETS`): a server may answer it
   * anything but a success without credentials, so only that (and an answer without a server error) is judged.
   */
  readonly respell?: (template: string) => string;
  /**
   * When a template of the step names nothing that came (an empty list has no first item), the case ends
   * skipped with this reason instead of failing: the target holds nothing to read, which is not its fault.
   */
  readonly unlessMissing?: string;
  /**
   * HTTP's own method sent to the operation's path instead of the operation's (HEAD on a GET, OPTIONS): the answer
   * is held to what HTTP requires of that method (judge-exchange.ts OTHER_METHOD_CHECKS), not to the operation's.
   */
  readonly method?: 'HEAD' | 'OPTIONS';
  /**
   * Sent on a socket of its own and read byte by byte (http/send-raw.ts): bytes after an answer that can have no
   * content are seen. Its answer's body is not decoded, so it is held to RAW_CHECKS alone (judge-exchange.ts).
   */
  readonly raw?: boolean;
  /**
   * The step is sent again with the next cursor its answer carries, until an answer carries none or `maxPages` were
   * read; each page is judged with `expect.effect.walkPage` told what came before.
   */
  readonly walk?: CursorWalk;
  /** Whether any of the step's values holds a `{{...}}` template: the others are sent and compared as written. */
  readonly templated: boolean;
}

/** What names a case, the same in the case and in its result. */
export interface CaseIdentity {
  /** Stable across runs (with the same seed, for generated cases): reports name it, `--case` runs it alone. */
  readonly id: string;
  /** Where the case came from: a scenario file, or the generator (and which kind of case). */
  readonly source: 'file' | 'generated';
  /** The generator's kind of case (undefined for scenario files). */
  readonly kind: string | undefined;
  /** The scenario file, relative to the working directory; for a generated case, `generated:<kind>`. */
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
}

export interface Scenario extends CaseIdentity {
  readonly steps: readonly Step[];
  /** 'dedicated': the steps go over one connection of their own, opened for the case (auth on a kept-alive connection). */
  readonly connection?: 'pooled' | 'dedicated';
  /** The case works on a record every case shares (a top-level single record): it runs after the others, alone. */
  readonly alone?: true;
}
