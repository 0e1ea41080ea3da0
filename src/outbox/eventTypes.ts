// How a module declares the event types it causes (the database's triggers write them to the
// outbox): one record per kind of event, each type with what it says and the schema of its body's
// `data`. The reference's `webhooks`, the typed client's event types and docs/webhooks.md's table
// are generated from these records, so a new event type is written once, in its module.

/** A JSON Schema, loosely typed: the OpenAPI document's validator checks it. */
export type JsonSchema = Record<string, unknown>;

/** One event type: what happened, and what its body's `data` holds. */
export interface EventTypeDeclaration {
  /** The reference's name of its body, `<name>Webhook`: the type's words (`OrderStatusChanged`) unless given. */
  name?: string;
  /** What happened, in a few words: the reference's summary of the request. */
  summary: string;
  /** What the event says, when it says more than its summary: the body's description. */
  description?: string;
  /** The body's `data`: its properties, and the ones it always has. */
  data: { required: readonly string[]; properties: Record<string, JsonSchema> };
}

/** One kind of event a module causes, such as the order events: `<name>.<what happened>`. */
export interface EventKind<Name extends string = string, Type extends string = string> {
  /** The row the events are about (`order`): the typed client calls their bodies `OrderWebhook`. */
  name: Name;
  /** How the reference lists them: `order events`. */
  label: string;
  types: Record<Type, EventTypeDeclaration>;
}

/** The event types of a kind (of each, for a union of kinds): `order.created` | ... */
export type TypeNameOf<Kind> = Kind extends EventKind<string, infer Type> ? Type : never;

/** The names of a kind's event types, in their declared order. */
export function typeNamesOf<Kind extends EventKind>(kind: Kind): TypeNameOf<Kind>[] {
  return Object.keys(kind.types) as TypeNameOf<Kind>[];
}
