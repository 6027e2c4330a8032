// Who did something: a person (with the role they held in the company), an API key, or the
// service itself. Every write carries one, so the audit trail can name who did each step.
import type { Role } from './people/roles.ts';

export type Actor =
  | {
      readonly kind: 'person';
      readonly personId: string;
      readonly name: string;
      readonly email: string;
      readonly role: Role;
      readonly approves: boolean;
    }
  | { readonly kind: 'api-key'; readonly keyId: string; readonly keyName: string }
  | { readonly kind: 'system'; readonly what: string };

/** The service's own steps (the delivery worker, sweeps, migrations), named by what they are. */
export function systemActor(what: string): Actor {
  return { kind: 'system', what };
}

/** How the audit trail and the pages name an actor: "Ada Lovelace", "API key ‹payroll›", "system (delivery worker)". */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case 'person':
      return actor.name.trim() === '' ? actor.email : actor.name;
    case 'api-key':
      return `API key ‹${actor.keyName}›`;
    case 'system':
      return `system (${actor.what})`;
  }
}
