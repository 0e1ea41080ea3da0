// A postback's request: its settings checked when it is saved (the templates' form, the method and
// body rules), and rendered for one conversion, as sent and as shown to its owner. Pure.
import type { PostbackBodyFormat, PostbackMethod } from '../../generated/prisma/client';
import type { OutgoingRequest } from '../../outbox/send';
import type { ShownRequest } from '../../outbox/lane';
import { MAX_URL_LENGTH } from '../../schema/inputLimits';
import {
  macroValues,
  type Conversion,
  type MacroName,
  type MacroValues,
  type RenderRules,
  type RequestContext,
} from './macros';
import {
  REDACTED,
  redactJson,
  redactPairs,
  redactUrl,
  secretsInJson,
  secretsInPairs,
} from './redaction';
import {
  jsonMacrosOf,
  macrosOf,
  parseJsonTemplate,
  parseTemplate,
  parseUrlTemplate,
  render,
  renderJson,
  renderUrl,
  TemplateError,
  type JsonTemplate,
  type TemplatePart,
} from './templates';

/** Characters of a URL template: a URL input's, which a preset's template is held to as well. */
export const URL_TEMPLATE_MAX = MAX_URL_LENGTH;
/** Characters of a body template. */
export const BODY_TEMPLATE_MAX = 4_096;
/** A rendered URL longer than this is not sent: most servers refuse longer request lines. */
export const RENDERED_URL_MAX = 8_192;
/** A rendered body larger than this is not sent. */
export const RENDERED_BODY_MAX = 16 * 1024;

export const CONTENT_TYPES: Record<PostbackBodyFormat, string> = {
  FORM: 'application/x-www-form-urlencoded',
  JSON: 'application/json',
};

/** What a postback sends, as saved. */
export interface PostbackSettings extends RenderRules {
  method: PostbackMethod;
  urlTemplate: string;
  bodyFormat: PostbackBodyFormat | null;
  bodyTemplate: string | null;
  successText: string | null;
  secret: string | null;
}

type Body = { format: 'FORM'; parts: TemplatePart[] } | { format: 'JSON'; template: JsonTemplate };

/** The parsed templates of a postback's settings. */
export interface ParsedPostback {
  method: PostbackMethod;
  url: TemplatePart[];
  body: Body | null;
}

/**
 * The templates parsed, or a TemplateError naming what is wrong: a GET has no body; a POST's body
 * has a format and a template, or neither (its parameters are then all in the URL).
 */
export function parsePostback(settings: Omit<PostbackSettings, keyof RenderRules>): ParsedPostback {
  if (settings.urlTemplate.length > URL_TEMPLATE_MAX) {
    throw new TemplateError(`urlTemplate must be at most ${URL_TEMPLATE_MAX} characters`);
  }
  const url = parseUrlTemplate(settings.urlTemplate);
  const { method, bodyFormat, bodyTemplate } = settings;
  if (method === 'GET') {
    if (bodyFormat !== null || bodyTemplate !== null) {
      throw new TemplateError(
        'A GET postback has no body: leave bodyFormat and bodyTemplate out, or use POST',
      );
    }
    return { method, url, body: null };
  }
  if (bodyFormat === null && bodyTemplate === null) return { method, url, body: null };
  if (bodyFormat === null)
    throw new TemplateError('bodyTemplate needs a bodyFormat (FORM or JSON)');
  if (bodyTemplate === null) throw new TemplateError(`A ${bodyFormat} body needs a bodyTemplate`);
  if (bodyTemplate.length > BODY_TEMPLATE_MAX) {
    throw new TemplateError(`bodyTemplate must be at most ${BODY_TEMPLATE_MAX} characters`);
  }
  const body: Body =
    bodyFormat === 'FORM'
      ? { format: 'FORM', parts: parseTemplate(bodyTemplate, 'bodyTemplate') }
      : { format: 'JSON', template: parseJsonTemplate(bodyTemplate) };
  return { method, url, body };
}

/** Every macro the postback's templates use. */
export function macrosUsed(parsed: ParsedPostback): MacroName[] {
  const body = parsed.body;
  const inBody =
    body === null
      ? []
      : body.format === 'FORM'
        ? macrosOf(body.parts)
        : jsonMacrosOf(body.template);
  return [...new Set([...macrosOf(parsed.url), ...inBody])];
}

/** The request for one conversion's values: its URL, content type and body. */
export interface RenderedRequest {
  method: PostbackMethod;
  url: string;
  contentType: string | null;
  body: string | null;
}

export function renderRequest(parsed: ParsedPostback, values: MacroValues): RenderedRequest {
  const { body } = parsed;
  return {
    method: parsed.method,
    url: renderUrl(parsed.url, values),
    contentType: body === null ? null : CONTENT_TYPES[body.format],
    body:
      body === null
        ? null
        : body.format === 'FORM'
          ? render(body.parts, values)
          : renderJson(body.template, values),
  };
}

// A rendered URL's scheme and authority: what follows is its request target.
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** A character a request line carries percent-encoded: controls, spaces, non-ASCII, and the unsafe. */
const UNSAFE_IN_TARGET = /[^\x21-\x7e]|["<>\\^`{|}]/gu;

function percentEncoded(character: string): string {
  try {
    return encodeURIComponent(character);
  } catch {
    return '%EF%BF%BD'; // a lone surrogate: U+FFFD, as a URL parser writes it
  }
}

/**
 * The request target (path and query) of a rendered URL as written, sent as it is: not through a
 * URL object, which would resolve the dot segments that path macros keep encoded.
 */
export function requestTarget(url: string): string {
  const rest = url.replace(AUTHORITY, '');
  return (rest.startsWith('/') ? rest : `/${rest}`).replace(UNSAFE_IN_TARGET, percentEncoded);
}

/** The URL a rendered one is sent as: its authority and its request target. */
function sentUrl(url: string): string {
  return `${AUTHORITY.exec(url)?.[0] ?? ''}${requestTarget(url)}`;
}

/** The request as its owner is shown it: the secret macro and secret parameters redacted. */
export function shownRequest(parsed: ParsedPostback, values: MacroValues): ShownRequest {
  const rendered = renderRequest(parsed, { ...values, secret: REDACTED });
  const format = parsed.body?.format;
  return {
    method: rendered.method,
    url: redactUrl(sentUrl(rendered.url)),
    body:
      rendered.body === null
        ? null
        : format === 'FORM'
          ? redactPairs(rendered.body)
          : redactJson(rendered.body),
  };
}

/** Why a rendered request cannot be sent, or null. */
export function renderedRefusal(rendered: RenderedRequest): string | null {
  if (rendered.url.length > RENDERED_URL_MAX) {
    return `the rendered URL is ${rendered.url.length} characters long, more than ${RENDERED_URL_MAX}`;
  }
  // Never thrown on: URL's error carries the URL, secret and all, into whatever logs it.
  if (!URL.canParse(rendered.url)) return 'the rendered URL is not a URL';
  if (rendered.body !== null && Buffer.byteLength(rendered.body) > RENDERED_BODY_MAX) {
    return `the rendered body is larger than ${RENDERED_BODY_MAX} bytes`;
  }
  return null;
}

/**
 * Every secret a rendered request carries, which an answer echoing it must not show: the `{secret}`
 * macro's value and the values of secret-named parameters, as sent and as decoded.
 */
export function secretsOf(rendered: RenderedRequest, secret: string | null): string[] {
  const query = rendered.url.indexOf('?');
  const inUrl = query === -1 ? [] : secretsInPairs(rendered.url.slice(query + 1));
  const inBody =
    rendered.body === null
      ? []
      : rendered.contentType === CONTENT_TYPES.JSON
        ? secretsInJson(rendered.body)
        : secretsInPairs(rendered.body);
  return [...new Set([...(secret ? [secret] : []), ...inUrl, ...inBody])];
}

/** The request a dispatcher sends, from a rendered one. */
export function outgoingRequest(rendered: RenderedRequest): OutgoingRequest {
  return {
    method: rendered.method,
    url: new URL(rendered.url),
    target: requestTarget(rendered.url),
    headers: {
      'user-agent': 'affiliate-network-postbacks/1',
      ...(rendered.contentType !== null && { 'content-type': rendered.contentType }),
    },
    body: rendered.body,
  };
}

/** One attempt of a postback: its request as sent and as shown, and the secrets it carries. */
export type RenderedAttempt =
  | { refusal: null; request: OutgoingRequest; shown: ShownRequest; secrets: string[] }
  /** Not sent, and why. */
  | { refusal: string; shown: ShownRequest };

/** The postback's request for a conversion and what it is sent for (saved settings parse). */
export function renderAttempt(
  settings: PostbackSettings,
  conversion: Conversion,
  context: RequestContext,
): RenderedAttempt {
  const values = macroValues(conversion, context, settings, settings.secret);
  const parsed = parsePostback(settings);
  const rendered = renderRequest(parsed, values);
  const shown = shownRequest(parsed, values);
  const refusal = renderedRefusal(rendered);
  if (refusal) return { refusal, shown };
  return {
    refusal: null,
    request: outgoingRequest(rendered),
    shown,
    secrets: secretsOf(rendered, settings.secret),
  };
}
