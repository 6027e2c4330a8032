// Who may do what in a company: the one table of roles and actions. The panel's routes each name
// one action (src/panel/), the services check the same table for API keys and people alike, and
// docs/team.md prints it. A route or action without a row here is refused at start-up.

export type Role = 'owner' | 'admin' | 'accountant' | 'approver' | 'viewer';

/** Most powerful first: the order the people page lists them in. */
export const ROLES: readonly Role[] = ['owner', 'admin', 'accountant', 'approver', 'viewer'];

export const ROLE_NAMES: Readonly<Record<Role, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  accountant: 'Accountant',
  approver: 'Approver',
  viewer: 'Viewer',
};

/** A person's place in one company: a role, and for an accountant or admin, approving as well. */
export interface Membership {
  readonly role: Role;
  /** Approves checks besides their role's work (an accountant who also approves). */
  readonly approves: boolean;
}

const EVERYONE: readonly Role[] = ROLES;
const MANAGERS: readonly Role[] = ['owner', 'admin'];
const BOOKKEEPERS: readonly Role[] = ['owner', 'admin', 'accountant'];

interface ActionRow {
  /** Who holds it by role alone. */
  readonly roles: readonly Role[];
  /** The words after "can't" in a refusal: "Your role, Viewer, can't print checks." */
  readonly words: string;
}

/**
 * Every action a person can take. Reading is one action: every role reads everything of its
 * company (an auditor must see what they audit); the rest are writes, each held by the roles
 * that do that work.
 */
export const ACTIONS = {
  read: { roles: EVERYONE, words: 'see this company' },
  export: { roles: EVERYONE, words: 'export files' },
  'audit.read': { roles: ['owner', 'admin', 'viewer'], words: 'see the audit trail' },
  'company.close': { roles: ['owner'], words: 'close the company' },
  'security.policy': { roles: ['owner'], words: 'require a second factor of everyone' },
  'people.manage': { roles: MANAGERS, words: 'manage people' },
  'settings.manage': { roles: MANAGERS, words: 'change settings' },
  'bank-accounts.manage': { roles: MANAGERS, words: 'change bank accounts or signatures' },
  'api-keys.manage': { roles: MANAGERS, words: 'manage API keys' },
  'webhooks.manage': { roles: MANAGERS, words: 'manage webhooks' },
  'approvals.policy': { roles: MANAGERS, words: 'change the approval policy' },
  'payees.manage': { roles: BOOKKEEPERS, words: 'change payees or addresses' },
  'checks.write': { roles: BOOKKEEPERS, words: 'write, edit or delete checks' },
  'checks.import': { roles: BOOKKEEPERS, words: 'import files' },
  'checks.print': { roles: BOOKKEEPERS, words: 'print checks' },
  'checks.deliver': { roles: BOOKKEEPERS, words: 'email or mail checks' },
  'checks.void': { roles: BOOKKEEPERS, words: 'void checks' },
  'checks.reconcile': { roles: BOOKKEEPERS, words: 'reconcile the register' },
  'positive-pay.send': { roles: BOOKKEEPERS, words: 'make positive pay files' },
  'checks.approve': { roles: ['owner', 'approver'], words: 'approve or reject checks' },
} as const satisfies Record<string, ActionRow>;

export type Action = keyof typeof ACTIONS;

export function isAction(value: string): value is Action {
  return Object.hasOwn(ACTIONS, value);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Whether a member may take an action: by role, or approving by the membership's own flag. */
export function may(member: Membership, action: Action): boolean {
  if ((ACTIONS[action].roles as readonly Role[]).includes(member.role)) return true;
  return action === 'checks.approve' && member.approves && (member.role === 'accountant' || member.role === 'admin');
}

/** The refusal a person reads: what their role can't do, and who can change it. */
export function forbiddenWords(member: Membership, action: Action, company: string): string {
  const who = company.trim() === '' ? 'this company' : company.trim();
  return `Your role, ${ROLE_NAMES[member.role]}, can't ${ACTIONS[action].words}. An admin of ${who} can change it.`;
}

/**
 * Which roles a manager may hand out, and whose place they may change: an owner grants any role;
 * an admin grants every role but owner, and neither changes nor removes an owner (else an admin
 * could demote the owners and take the company). Only an owner makes owners.
 */
export function mayGrant(granter: Role, role: Role): boolean {
  if (granter === 'owner') return true;
  return granter === 'admin' && role !== 'owner';
}

/** Whether `manager` may change the role of, or remove, a person who holds `target` now. */
export function mayManage(manager: Role, target: Role): boolean {
  return mayGrant(manager, target);
}

/** Approving beside a role is for accountants and admins (owners and approvers approve already). */
export function approvesWith(role: Role, approves: boolean): boolean {
  return approves && (role === 'accountant' || role === 'admin');
}
