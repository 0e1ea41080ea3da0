// A postback's templates: a URL, and for a POST a form or JSON body, with macros in braces
// (`{sub1}`, src/modules/postbacks/macros.ts). Braces stand for macros only: a stray one, an
// unknown name or a macro where it could change the request's target is refused, naming it. Values
// are percent-encoded in a URL or a form (RFC 3986's unreserved characters stay, everything else
// is encoded, so a value can never add or change a parameter, a path segment or the fragment) and
// JSON-encoded in a JSON body (macros stand inside its strings). Pure.
import { shown } from '../../platform/errors';
import { isMacroName, MACRO_NAMES, type MacroName, type MacroValues } from './macros';

export type TemplatePart = { literal: string } | { macro: MacroName };

/** A template that cannot be saved; the message names what is wrong. */
export class TemplateError extends Error {}

const MACRO_LIST = MACRO_NAMES.map((name) => `{${name}}`).join(', ');

/** The parts of a text template; `what` names the template in refusals. */
export function parseTemplate(text: string, what: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let at = 0;
  while (at < text.length) {
    const character = text[at]!;
    if (character === '}') {
      throw new TemplateError(`${what} is malformed: the } at character ${at + 1} closes nothing`);
    }
    if (character !== '{') {
      literal += character;
      at += 1;
      continue;
    }
    const end = text.indexOf('}', at + 1);
    const next = text.indexOf('{', at + 1);
    if (end === -1 || (next !== -1 && next < end)) {
      throw new TemplateError(`${what} is malformed: the { at character ${at + 1} is not closed`);
    }
    const name = text.slice(at + 1, end);
    if (!isMacroName(name)) {
      throw new TemplateError(
        name === ''
          ? `${what} is malformed: {} at character ${at + 1} names no macro`
          : `${what} uses an unknown macro {${shown(name)}}; the macros are ${MACRO_LIST}`,
      );
    }
    if (literal) parts.push({ literal });
    literal = '';
    parts.push({ macro: name });
    at = end + 1;
  }
  if (literal) parts.push({ literal });
  return parts;
}

const isMacro = (part: TemplatePart): part is { macro: MacroName } => 'macro' in part;

/** The macros a template uses. */
export function macrosOf(parts: readonly TemplatePart[]): MacroName[] {
  return parts.filter(isMacro).map((part) => part.macro);
}

/** Percent-encodes everything but RFC 3986's unreserved characters (A-Z a-z 0-9 - . _ ~). */
export function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A template's text with each macro's value, encoded by `encode`. */
export function render(
  parts: readonly TemplatePart[],
  values: MacroValues,
  encode: (value: string) => string = encodeValue,
): string {
  return parts.map((part) => (isMacro(part) ? encode(values[part.macro]) : part.literal)).join('');
}

/**
 * A value in the URL's path: its dots too, so that no value (`..`, or `.` beside a literal dot)
 * makes a dot segment, which moves the request to another path (RFC 3986 §5.2.4).
 */
export function encodePathValue(value: string): string {
  return encodeValue(value).replace(/\./g, '%2E');
}

/** The URL template's text with each macro's value: in the path with its dots encoded too. */
export function renderUrl(parts: readonly TemplatePart[], values: MacroValues): string {
  let inQuery = false;
  return parts
    .map((part) => {
      if (!isMacro(part)) {
        inQuery ||= part.literal.includes('?');
        return part.literal;
      }
      return (inQuery ? encodeValue : encodePathValue)(values[part.macro]);
    })
    .join('');
}

// The scheme and the authority, up to where the path or the query begins.
const ORIGIN_THEN_PATH = /^[a-z][a-z0-9+.-]*:\/\/[^/?#{}]*[/?]/i;

/**
 * The URL template's parts. Macros stand after the host (in the path or the query), so the
 * address a postback goes to is known, and checked, when it is saved.
 */
export function parseUrlTemplate(text: string): TemplatePart[] {
  const parts = parseTemplate(text, 'urlTemplate');
  const firstMacro = parts.findIndex(isMacro);
  if (firstMacro !== -1) {
    const before = render(parts.slice(0, firstMacro), {} as MacroValues);
    if (!ORIGIN_THEN_PATH.test(before)) {
      throw new TemplateError(
        `urlTemplate may hold macros only after the host, in the path or the query ({${macrosOf(parts)[0]}} stands before)`,
      );
    }
  }
  return parts;
}

/** A JSON body template: JSON whose strings may hold macros (not its keys). */
export type JsonTemplate =
  | null
  | boolean
  | number
  | { text: TemplatePart[] }
  | JsonTemplate[]
  | { entries: [string, JsonTemplate][] };

function jsonTemplateOf(value: unknown, path: string): JsonTemplate {
  if (typeof value === 'string') {
    return { text: parseTemplate(value, `bodyTemplate at ${shown(path)}`) };
  }
  if (Array.isArray(value)) return value.map((item, n) => jsonTemplateOf(item, `${path}[${n}]`));
  if (value !== null && typeof value === 'object') {
    return {
      entries: Object.entries(value).map(([key, item]) => {
        if (macrosOf(parseTemplate(key, `bodyTemplate key "${key}"`)).length > 0) {
          throw new TemplateError(
            `bodyTemplate may hold macros in values only, not in the key "${shown(key)}"`,
          );
        }
        return [key, jsonTemplateOf(item, `${path}.${key}`)];
      }),
    };
  }
  return value as null | boolean | number;
}

export function parseJsonTemplate(text: string): JsonTemplate {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TemplateError(`bodyTemplate is not JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object') {
    throw new TemplateError('bodyTemplate must be a JSON object or array');
  }
  return jsonTemplateOf(value, '$');
}

function jsonValueOf(template: JsonTemplate, values: MacroValues): unknown {
  if (template === null || typeof template !== 'object') return template;
  if (Array.isArray(template)) return template.map((item) => jsonValueOf(item, values));
  if ('text' in template) return render(template.text, values, (value) => value);
  return Object.fromEntries(
    template.entries.map(([key, item]) => [key, jsonValueOf(item, values)]),
  );
}

/** The JSON body: each string with its macros' values, the whole JSON-encoded. */
export function renderJson(template: JsonTemplate, values: MacroValues): string {
  return JSON.stringify(jsonValueOf(template, values));
}

/** The macros a JSON template uses. */
export function jsonMacrosOf(template: JsonTemplate): MacroName[] {
  if (template === null || typeof template !== 'object') return [];
  if (Array.isArray(template)) return template.flatMap(jsonMacrosOf);
  if ('text' in template) return macrosOf(template.text);
  return template.entries.flatMap(([, item]) => jsonMacrosOf(item));
}
