import { describe, expect, it } from 'vitest';
import { decide, type EscalationCommand, type EscalationState } from '../../src/escalations/escalation-state.js';

const alice = { id: 'key:alice', name: 'Alice' };
const bob = { id: 'user:bob', name: 'Bob' };

const pending: EscalationState = { status: 'pending', claimedById: null };
const activeByAlice: EscalationState = { status: 'active', claimedById: alice.id };
const resolved: EscalationState = { status: 'resolved', claimedById: alice.id };

/** Every state × command, with what section 3 (and our choices for its "not shown" cells) says. */
const table: Array<[string, EscalationState, EscalationCommand, ReturnType<typeof decide>]> = [
  ['pending + claim → active, claimed', pending, { kind: 'claim', operator: alice }, { ok: true, status: 'active', statusChanged: true, claimedBy: alice, writes: true }],
  ['active + claim by the claimant → no-op', activeByAlice, { kind: 'claim', operator: alice }, { ok: true, status: 'active', statusChanged: false, claimedBy: null, writes: false }],
  ['active + claim by another → ESCALATION_CLAIMED', activeByAlice, { kind: 'claim', operator: bob }, { ok: false, rejection: 'ESCALATION_CLAIMED' }],
  ['resolved + claim → ESCALATION_RESOLVED', resolved, { kind: 'claim', operator: alice }, { ok: false, rejection: 'ESCALATION_RESOLVED' }],
  ['pending + operator reply → active, auto-claimed', pending, { kind: 'operator-reply', operator: bob }, { ok: true, status: 'active', statusChanged: true, claimedBy: bob, writes: true }],
  ['active + reply by the claimant → active', activeByAlice, { kind: 'operator-reply', operator: alice }, { ok: true, status: 'active', statusChanged: false, claimedBy: null, writes: true }],
  ['active + reply by a colleague → active, claim kept', activeByAlice, { kind: 'operator-reply', operator: bob }, { ok: true, status: 'active', statusChanged: false, claimedBy: null, writes: true }],
  ['resolved + operator reply → ESCALATION_RESOLVED', resolved, { kind: 'operator-reply', operator: alice }, { ok: false, rejection: 'ESCALATION_RESOLVED' }],
  ['pending + resolve → resolved', pending, { kind: 'resolve', operator: alice }, { ok: true, status: 'resolved', statusChanged: true, claimedBy: null, writes: true }],
  ['active + resolve (any operator) → resolved', activeByAlice, { kind: 'resolve', operator: bob }, { ok: true, status: 'resolved', statusChanged: true, claimedBy: null, writes: true }],
  ['resolved + resolve → no-op', resolved, { kind: 'resolve', operator: alice }, { ok: true, status: 'resolved', statusChanged: false, claimedBy: null, writes: false }],
  ['pending + user message → pending', pending, { kind: 'user-message' }, { ok: true, status: 'pending', statusChanged: false, claimedBy: null, writes: true }],
  ['active + user message → active', activeByAlice, { kind: 'user-message' }, { ok: true, status: 'active', statusChanged: false, claimedBy: null, writes: true }],
  ['resolved + user message → ESCALATION_RESOLVED', resolved, { kind: 'user-message' }, { ok: false, rejection: 'ESCALATION_RESOLVED' }],
  ['pending + abandon → resolved', pending, { kind: 'abandon' }, { ok: true, status: 'resolved', statusChanged: true, claimedBy: null, writes: true }],
  ['active + abandon → resolved', activeByAlice, { kind: 'abandon' }, { ok: true, status: 'resolved', statusChanged: true, claimedBy: null, writes: true }],
  ['resolved + abandon → no-op', resolved, { kind: 'abandon' }, { ok: true, status: 'resolved', statusChanged: false, claimedBy: null, writes: false }],
];

describe('escalation state machine', () => {
  it.each(table)('%s', (_label, state, command, expected) => {
    expect(decide(state, command)).toEqual(expected);
  });

  it('covers every state × command pair', () => {
    const pairs = new Set(table.map(([, state, command]) => `${state.status}/${command.kind}/${'operator' in command ? (state.claimedById === command.operator.id ? 'same' : 'other') : '-'}`));
    for (const status of ['pending', 'active', 'resolved']) {
      for (const kind of ['claim', 'operator-reply', 'resolve', 'user-message', 'abandon']) {
        expect([...pairs].some((p) => p.startsWith(`${status}/${kind}/`)), `${status}/${kind}`).toBe(true);
      }
    }
  });
});
