/**
 * A request check as a plain function: it answers (returns a Response) or lets the request go on
 * (returns undefined). `runSteps` chains checks inside ONE Hono handler; `stepMiddleware` wraps a
 * check as ordinary Hono middleware. Why both: Hono composes middleware with an async dispatch,
 * a closure and several promises per layer on every request, and a route with a single handler
 * skips composition altogether, so the ingest hot path runs its checks as steps (measured in the
 * README's ingest benchmark section) while other apps may keep `app.use()`.
 */

import type { Context, MiddlewareHandler } from "hono";

export type StepAnswer = Response | undefined;

// biome-ignore lint/suspicious/noExplicitAny: a step runs in any app, whatever its env type
export type RequestStep<C extends Context = Context<any>> = (c: C) => StepAnswer | Promise<StepAnswer>;

/** The step as Hono middleware: its answer ends the chain, otherwise `next()` runs. */
export function stepMiddleware(step: RequestStep): MiddlewareHandler {
  return async function stepMiddleware(c, next) {
    const answer = await step(c);
    if (answer !== undefined) return answer;
    await next();
  };
}

/**
 * One handler that runs `steps` in order (the first answer wins) and then `handler`. A step that
 * answers synchronously costs no promise.
 */
// biome-ignore lint/suspicious/noExplicitAny: see RequestStep
export function runSteps<C extends Context = Context<any>>(
  steps: readonly RequestStep[],
  handler: (c: C) => Response | Promise<Response>,
): (c: C) => Response | Promise<Response> {
  if (steps.length === 0) return handler;
  return function runStepsThenHandler(c) {
    for (let i = 0; i < steps.length; i++) {
      const answer = (steps[i] as RequestStep)(c);
      if (answer instanceof Promise) return continueAsync(c, answer, i + 1);
      if (answer !== undefined) return answer;
    }
    return handler(c);
  };

  async function continueAsync(c: C, pending: Promise<StepAnswer>, from: number): Promise<Response> {
    const first = await pending;
    if (first !== undefined) return first;
    for (let i = from; i < steps.length; i++) {
      let answer = (steps[i] as RequestStep)(c);
      if (answer instanceof Promise) answer = await answer;
      if (answer !== undefined) return answer;
    }
    return handler(c);
  }
}
