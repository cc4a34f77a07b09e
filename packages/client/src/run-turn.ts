import { ParleyError } from './errors.js';
import type { Action, ActionResult, Context, ContinueReply, ContinueRequest, MessageReply, MessageRequest } from './types.js';

/** What executeAction reports about one action. */
export interface ActionOutcome {
  success: boolean;
  /** Why it failed, for the agent (sent as `error`). */
  error?: string;
  /** What happened, for the agent (sent as `summary`). */
  summary?: string;
}

export interface RunTurnOptions {
  /** Continue an existing session; a new one is created when omitted. */
  sessionId?: string;
  /**
   * The UI context. A function is called before each request, so the context can
   * follow the app after an action (e.g. `navigate`) changed the screen.
   */
  context: Context | (() => Context | Promise<Context>);
  /**
   * Runs one action in the app. `hop` is the /agent/continue call its result will go with
   * (1 for the message's actions). A throw counts as `{ success: false, error: message }`.
   */
  executeAction: (action: Action, turn: { hop: number; sessionId: string }) => ActionOutcome | Promise<ActionOutcome>;
  mcpVersion?: string;
  signal?: AbortSignal;
}

export interface TurnStep {
  /** 0 for the reply to the message, then the `hop` of each /agent/continue call. */
  hop: number;
  message: MessageReply['message'] | ContinueReply['message'];
  usage: MessageReply['usage'];
  /** The step's actions with the results the client reported (empty when none were run). */
  actions: Array<{ action: Action; result: ActionResult }>;
}

export interface TurnTranscript {
  sessionId: string;
  steps: TurnStep[];
  /** Number of /agent/continue calls answered. */
  hops: number;
  /**
   * Actions of the last reply that were not executed: the server ended the turn
   * (isDone true, e.g. at its hop bound) while still listing actions (section 4, rule 2).
   */
  unexecutedActions: Action[];
  /** The assistant's texts of the turn, in order, non-empty ones joined by a blank line. */
  text: string;
  /**
   * True when a human took the conversation over during the turn (an action such as
   * Parley's `escalate` opened an escalation): the server then refuses /agent/continue with
   * 409 ESCALATION_OPEN, so the turn ends there; send the user's next messages to the
   * escalation (sendEscalationMessage) until it is resolved.
   */
  handedOver: boolean;
}

export interface TurnApi {
  sendMessage(body: MessageRequest, options?: { signal?: AbortSignal | undefined }): Promise<MessageReply>;
  continueTurn(body: ContinueRequest, options?: { signal?: AbortSignal | undefined }): Promise<ContinueReply>;
}

/**
 * The turn loop of section 4: send the message; while the latest reply lists actions
 * and the turn is not done, execute them (in order) and report all results through
 * /agent/continue with hop 1, 2, …; stop as soon as isDone is true, even if that
 * reply lists actions (rule 2) — those are returned as `unexecutedActions`.
 */
export async function runTurn(api: TurnApi, content: string, options: RunTurnOptions): Promise<TurnTranscript> {
  const currentContext = async (): Promise<Context> => (typeof options.context === 'function' ? await options.context() : options.context);
  const signal = options.signal;

  const first = await api.sendMessage(
    {
      content,
      context: await currentContext(),
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
      ...(options.mcpVersion === undefined ? {} : { mcpVersion: options.mcpVersion }),
    } as MessageRequest,
    { signal },
  );
  const sessionId = first.sessionId;
  const steps: TurnStep[] = [{ hop: 0, message: first.message, usage: first.usage, actions: [] }];
  let pending: Action[] = first.message.actions;
  let isDone = pending.length === 0;
  let hop = 0;
  let handedOver = false;

  while (!isDone && pending.length > 0) {
    const step = steps[steps.length - 1] as TurnStep;
    for (const action of pending) {
      signal?.throwIfAborted();
      step.actions.push({ action, result: await execute(options, action, { hop: hop + 1, sessionId }) });
    }
    hop += 1;
    let reply: ContinueReply;
    try {
      reply = await api.continueTurn(
        { sessionId, results: step.actions.map((entry) => entry.result), context: await currentContext(), hop } as ContinueRequest,
        { signal },
      );
    } catch (error) {
      if (!(error instanceof ParleyError && error.code === 'ESCALATION_OPEN')) throw error;
      handedOver = true;
      pending = [];
      break;
    }
    steps.push({ hop, message: reply.message, usage: reply.usage, actions: [] });
    pending = reply.message.actions;
    isDone = reply.isDone;
  }

  return {
    sessionId,
    steps,
    hops: handedOver ? hop - 1 : hop,
    handedOver,
    unexecutedActions: isDone ? pending : [],
    text: steps
      .map((step) => step.message.content)
      .filter((text) => text.trim() !== '')
      .join('\n\n'),
  };
}

async function execute(options: RunTurnOptions, action: Action, turn: { hop: number; sessionId: string }): Promise<ActionResult> {
  let outcome: ActionOutcome;
  try {
    outcome = await options.executeAction(action, turn);
  } catch (error) {
    outcome = { success: false, error: error instanceof Error ? error.message : String(error) };
  }
  return {
    actionId: action.id,
    type: action.type,
    success: outcome.success,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(outcome.summary === undefined ? {} : { summary: outcome.summary }),
  } as ActionResult;
}
