// The pure rules of postback management: names, events, scopes, status maps, success texts and
// secrets, and how many postbacks. No I/O.
import type {
  OrderStatus,
  PostbackBodyFormat,
  PostbackMethod,
  PostbackPayoutRule,
} from '../../../generated/prisma/client';
import { BadRequestError, shown } from '../../../platform/errors';
import { isPostbackEventType, POSTBACK_EVENT_TYPES } from '../eventTypes';
import type { StatusMap, TypeMap } from '../macros';
import type { PostbackSettings } from '../request';
import { TemplateError } from '../templates';
import { ORDER_STATUSES, STATUS_MAP_KEYS } from '../settings';

/** Postbacks one user may have: one per tracker and scope with room to spare, few to fan out to. */
export const MAX_POSTBACKS_PER_USER = 20;
const NAME_MAX = 100;
/** Characters of a tracker's word for a status, and of a success text. */
export const WORD_MAX = 100;
export const SECRET_MAX = 200;

export function postbackName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > NAME_MAX) {
    throw new BadRequestError(`name must be 1 to ${NAME_MAX} characters`);
  }
  return trimmed;
}

/**
 * The event types asked for, each once; at least one, all a postback may take, and never two that
 * report one change twice: a payment is a status change to PAID too.
 */
export function postbackEvents(requested: readonly string[]): string[] {
  const known = POSTBACK_EVENT_TYPES.join(', ');
  if (requested.length === 0)
    throw new BadRequestError(`events must name at least one of ${known}`);
  const unknown = requested.filter((type) => !isPostbackEventType(type));
  if (unknown.length) {
    throw new BadRequestError(
      `Unknown event type ${unknown.map(shown).join(', ')}; a postback takes ${known}`,
    );
  }
  if (requested.includes('order.status_changed') && requested.includes('order.paid')) {
    throw new BadRequestError(
      'order.status_changed already reports a payment (the move to PAID): take it alone, or order.paid without it, so that a payment is sent once',
    );
  }
  return [...new Set(requested)];
}

/** The statuses a postback is sent for, each once; none: every status. */
export function postbackStatuses(requested: readonly OrderStatus[]): OrderStatus[] {
  return [...new Set(requested)];
}

export interface ScopeInput {
  brandId?: string | null;
  campaignId?: string | null;
  linkCode?: string | null;
}

/** The scope's one part: every order (all null), a brand's, a campaign's or a link's. */
export function postbackScope(scope: ScopeInput | null | undefined) {
  const parts = {
    brandId: scope?.brandId ?? null,
    campaignId: scope?.campaignId ?? null,
    linkCode: scope?.linkCode ?? null,
  };
  if (Object.values(parts).filter((part) => part !== null).length > 1) {
    throw new BadRequestError(
      'scope names one of brandId, campaignId or linkCode, or none (every order)',
    );
  }
  return parts;
}

/** A map of words as given under `keys`: each word 1 to WORD_MAX characters. */
function wordMap<Key extends string>(
  name: string,
  keys: readonly Key[],
  given: Partial<Record<Key, string | null>>,
): Partial<Record<Key, string>> {
  const map: Partial<Record<Key, string>> = {};
  for (const key of keys) {
    const word = given[key];
    if (word === null || word === undefined) continue;
    if (word.length === 0 || word.length > WORD_MAX) {
      throw new BadRequestError(`${name}.${key} must be 1 to ${WORD_MAX} characters`);
    }
    map[key] = word;
  }
  return map;
}

export const postbackStatusMap = (given: StatusMapInput): StatusMap =>
  wordMap('statusMap', STATUS_MAP_KEYS, given);
export const postbackTypeMap = (given: TypeMapInput): TypeMap =>
  wordMap('typeMap', ORDER_STATUSES, given);

type StatusMapInput = Partial<Record<(typeof STATUS_MAP_KEYS)[number], string | null>>;
type TypeMapInput = Partial<Record<OrderStatus, string | null>>;

/** A success text, or null; empty is none. */
export function postbackSuccessText(text: string | null | undefined): string | null {
  if (!text) return null;
  if (text.length > WORD_MAX) {
    throw new BadRequestError(`successText must be at most ${WORD_MAX} characters`);
  }
  return text;
}

/** A secret, or null; empty is none. */
export function postbackSecret(secret: string | null | undefined): string | null {
  if (!secret) return null;
  if (secret.length > SECRET_MAX) {
    throw new BadRequestError(`secret must be at most ${SECRET_MAX} characters`);
  }
  return secret;
}

/** A template's refusal (src/modules/postbacks/templates.ts) as the API's BAD_REQUEST. */
export function asBadRequest<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof TemplateError) throw new BadRequestError(error.message);
    throw error;
  }
}

/** What a mutation's input says of the settings; undefined leaves a setting as it is. */
export interface SettingsInput {
  method?: PostbackMethod | null;
  urlTemplate?: string | null;
  bodyFormat?: PostbackBodyFormat | null;
  bodyTemplate?: string | null;
  statusMap?: StatusMapInput | null;
  typeMap?: TypeMapInput | null;
  payoutRule?: PostbackPayoutRule | null;
  successText?: string | null;
  secret?: string | null;
}

/** What a postback starts from without a preset. */
export const EMPTY_SETTINGS: PostbackSettings = {
  method: 'GET',
  urlTemplate: '',
  bodyFormat: null,
  bodyTemplate: null,
  statusMap: {},
  typeMap: {},
  payoutRule: 'EARNINGS',
  successText: null,
  secret: null,
};

/** Whether the input changes any setting (then the postback is checked again as a whole). */
export function changesSettings(input: SettingsInput): boolean {
  const fields: (keyof SettingsInput)[] = [
    'method',
    'urlTemplate',
    'bodyFormat',
    'bodyTemplate',
    'statusMap',
    'typeMap',
    'payoutRule',
    'successText',
    'secret',
  ];
  return fields.some((field) => input[field] !== undefined);
}

/** Where a URL template sends to (scheme, host and port: macros stand after the host); null if unreadable. */
function originOf(urlTemplate: string): string | null {
  const url = URL.parse(urlTemplate.replace(/\{[^{}]*\}/g, 'x'));
  return url ? url.origin : null;
}

/**
 * `base` with what the input gives: null clears the body, the success text and the secret (as
 * empty text does), and a status map replaces the whole map; a null method or URL keeps them.
 */
export function mergedSettings(base: PostbackSettings, input: SettingsInput): PostbackSettings {
  const given = <K extends keyof SettingsInput>(field: K) => input[field] !== undefined;
  const urlTemplate = input.urlTemplate?.trim();
  if (
    base.secret !== null &&
    !given('secret') &&
    urlTemplate &&
    originOf(urlTemplate) !== originOf(base.urlTemplate)
  ) {
    throw new BadRequestError(
      'The secret was given for the host of the current urlTemplate: give secret again (or null for none) with a urlTemplate on another host',
    );
  }
  const settings: PostbackSettings = {
    method: input.method ?? base.method,
    urlTemplate: urlTemplate ?? base.urlTemplate,
    bodyFormat: given('bodyFormat') ? (input.bodyFormat ?? null) : base.bodyFormat,
    bodyTemplate: given('bodyTemplate') ? input.bodyTemplate || null : base.bodyTemplate,
    statusMap: given('statusMap') ? postbackStatusMap(input.statusMap ?? {}) : base.statusMap,
    typeMap: given('typeMap') ? postbackTypeMap(input.typeMap ?? {}) : base.typeMap,
    payoutRule: input.payoutRule ?? base.payoutRule,
    successText: given('successText') ? postbackSuccessText(input.successText) : base.successText,
    secret: given('secret') ? postbackSecret(input.secret) : base.secret,
  };
  if (!settings.urlTemplate) {
    throw new BadRequestError('urlTemplate is required, or a preset that fills it');
  }
  return settings;
}
