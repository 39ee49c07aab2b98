/**
 * The error drop list of spec §8: errors that say nothing about the app (the network, the
 * browser, its extensions, the native bridge, a crawler) and are never reported. The list
 * itself is data, `./drop-list.json`, the one copy: the browser applies it here before
 * anything reaches the recorder, and the server's ingest includes the same file
 * (`crates/moat-server/src/observability/drop_list.rs`) for clients that bypass this filter.
 *
 * Each rule names the field it reads and regular expressions in the syntax JavaScript and
 * Rust's `regex` crate share, matched case-insensitively anywhere in the field (the
 * recorder's `event` may be the message JSON-encoded, `"\"Failed to fetch\""`). Fields:
 * `message` is the error's message; `any` is the message or the stack (the frames' files
 * and the error's source); `userAgent` is the browser's (on the server: the request's).
 */
import list from './drop-list.json';

/** What a rule looks at. */
export type DropField = 'message' | 'any' | 'userAgent';

/** One entry of the drop list. */
export interface DropRule {
  /** Stable name (kebab-case), the same on the server. */
  name: string;
  field: DropField;
  /** Regular expression sources; the rule matches when any of them matches its field. */
  patterns: readonly string[];
  /** Samples the rule must drop (tested on both sides). */
  drops: readonly string[];
}

/** An error as the reporter sees it. */
export interface ReportedError {
  /** `Name: message` (or the message alone). */
  message: string;
  /** Stack trace, or the frames' file names, one a line. */
  stack?: string | undefined;
  userAgent?: string | undefined;
}

/** The drop list of spec §8, one rule per kind of noise, in the order they are tried. */
export const DROP_RULES: readonly DropRule[] = list.rules.map((rule) => ({ ...rule, field: rule.field as DropField }));

/** Messages (and user agents) no rule may drop: tested on both sides. */
export const DROP_LIST_KEEPS: readonly string[] = list.keeps;

const compiled = DROP_RULES.map((rule) => ({ rule, re: new RegExp(rule.patterns.map((p) => `(?:${p})`).join('|'), 'i') }));

function fieldValues(field: DropField, error: ReportedError): (string | undefined)[] {
  switch (field) {
    case 'message':
      return [error.message];
    case 'any':
      return [error.message, error.stack];
    case 'userAgent':
      return [error.userAgent];
  }
}

/** The first rule that drops `error`, if any. */
export function matchDropRule(error: ReportedError): DropRule | undefined {
  return compiled.find(({ rule, re }) => fieldValues(rule.field, error).some((v) => !!v && re.test(v)))?.rule;
}

/** Whether `error` is noise that must not be reported (spec §8). */
export function shouldDropError(error: ReportedError): boolean {
  return matchDropRule(error) !== undefined;
}

/** Whether `userAgent` is a search-engine or link-preview crawler (spec §8). */
export function isCrawler(userAgent: string): boolean {
  return compiled.some(({ rule, re }) => rule.field === 'userAgent' && re.test(userAgent));
}
