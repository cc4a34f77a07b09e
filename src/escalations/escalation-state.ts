/**
 * The escalation state machine of spec section 3, as a pure function: no I/O,
 * no HTTP. The service loads the row, asks `decide`, and writes what it says;
 * the routes map the domain errors to codes.
 */
export type EscalationStatus = 'pending' | 'active' | 'resolved';

export const openStatuses: readonly EscalationStatus[] = ['pending', 'active'];

/** An operator as the state machine sees it: a stable identity and a display name. */
export interface OperatorRef {
  /** `key:<keyId>` or `user:<userId>`: "the same operator" means the same id. */
  id: string;
  name: string;
}

export interface EscalationState {
  status: EscalationStatus;
  claimedById: string | null;
}

export type EscalationCommand =
  | { kind: 'claim'; operator: OperatorRef }
  | { kind: 'operator-reply'; operator: OperatorRef }
  | { kind: 'resolve'; operator: OperatorRef }
  | { kind: 'user-message' }
  | { kind: 'abandon' };

export type EscalationRejection = 'ESCALATION_RESOLVED' | 'ESCALATION_CLAIMED';

export type Decision =
  | {
      ok: true;
      /** Status after the command. */
      status: EscalationStatus;
      /** True when the status changed (a `status` stream frame fires). */
      statusChanged: boolean;
      /** Set when this command makes the operator the claimant. */
      claimedBy: OperatorRef | null;
      /** False for idempotent no-ops that write nothing. */
      writes: boolean;
    }
  | { ok: false; rejection: EscalationRejection };

export class EscalationStateError extends Error {
  override name = 'EscalationStateError';
  constructor(readonly rejection: EscalationRejection) {
    super(rejection === 'ESCALATION_RESOLVED' ? 'escalation is resolved' : 'escalation is claimed by another operator');
  }
}

export function isOpen(status: EscalationStatus): boolean {
  return status !== 'resolved';
}

const unchanged = (status: EscalationStatus, writes: boolean): Decision => ({ ok: true, status, statusChanged: false, claimedBy: null, writes });
const reject = (rejection: EscalationRejection): Decision => ({ ok: false, rejection });

/** What `command` does to an escalation in `state`. Exhaustive over states × commands. */
export function decide(state: EscalationState, command: EscalationCommand): Decision {
  const { status } = state;
  switch (command.kind) {
    case 'claim':
      if (status === 'resolved') return reject('ESCALATION_RESOLVED');
      if (status === 'pending') return { ok: true, status: 'active', statusChanged: true, claimedBy: command.operator, writes: true };
      // Active: claiming again is idempotent for the claimant, a conflict for anyone else.
      return state.claimedById === command.operator.id ? unchanged('active', false) : reject('ESCALATION_CLAIMED');
    case 'operator-reply':
      if (status === 'resolved') return reject('ESCALATION_RESOLVED');
      // The first reply auto-claims; later replies by any operator of the workspace
      // (a colleague helping out) leave the claim as it is.
      if (status === 'pending') return { ok: true, status: 'active', statusChanged: true, claimedBy: command.operator, writes: true };
      return unchanged('active', true);
    case 'resolve':
      // Resolving a resolved escalation is a no-op, like abandoning one.
      if (status === 'resolved') return unchanged('resolved', false);
      return { ok: true, status: 'resolved', statusChanged: true, claimedBy: null, writes: true };
    case 'user-message':
      if (status === 'resolved') return reject('ESCALATION_RESOLVED');
      return unchanged(status, true);
    case 'abandon':
      if (status === 'resolved') return unchanged('resolved', false);
      return { ok: true, status: 'resolved', statusChanged: true, claimedBy: null, writes: true };
  }
}
