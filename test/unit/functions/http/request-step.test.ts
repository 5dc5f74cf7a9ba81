/** Checks as steps: one handler runs them in order, the first answer wins, errors reach onError. */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { type RequestStep, runSteps, stepMiddleware } from "../../../../functions/http/request-step.ts";

function recordingStep(name: string, calls: string[], answer?: () => Response): RequestStep {
  return () => {
    calls.push(name);
    return answer?.();
  };
}

function asyncStep(name: string, calls: string[], answer?: () => Response): RequestStep {
  return async () => {
    await Promise.resolve();
    calls.push(name);
    return answer?.();
  };
}

describe("runSteps", () => {
  it("runs sync and async steps in order, then the handler", async () => {
    const calls: string[] = [];
    const app = new Hono();
    app.get(
      "/",
      runSteps(
        [recordingStep("a", calls), asyncStep("b", calls), recordingStep("c", calls), asyncStep("d", calls)],
        () => {
          calls.push("handler");
          return new Response("ok");
        },
      ),
    );

    const response = await app.request("/");

    expect(await response.text()).toBe("ok");
    expect(calls).toEqual(["a", "b", "c", "d", "handler"]);
  });

  it.each([
    ["a sync", recordingStep],
    ["an async", asyncStep],
  ])("stops at the first answer of %s step", async (_label, makeStep) => {
    const calls: string[] = [];
    const app = new Hono();
    app.get(
      "/",
      runSteps(
        [
          recordingStep("a", calls),
          makeStep("refuse", calls, () => new Response("no", { status: 401 })),
          recordingStep("c", calls),
        ],
        () => new Response("ok"),
      ),
    );

    const response = await app.request("/");

    expect(response.status).toBe(401);
    expect(calls).toEqual(["a", "refuse"]);
  });

  it("passes an error thrown by a step (sync or after an async step) to the app's error handler", async () => {
    const app = new Hono();
    app.onError(() => new Response("handled", { status: 500 }));
    const boom: RequestStep = () => {
      throw new Error("boom");
    };
    app.get(
      "/sync",
      runSteps([boom], () => new Response("ok")),
    );
    app.get(
      "/async",
      runSteps([asyncStep("a", []), boom], () => new Response("ok")),
    );

    expect(await (await app.request("/sync")).text()).toBe("handled");
    expect(await (await app.request("/async")).text()).toBe("handled");
  });
});

describe("stepMiddleware", () => {
  it("answers for the step or calls the next handler", async () => {
    const app = new Hono();
    app.use(
      "/refused",
      stepMiddleware(() => new Response("no", { status: 403 })),
    );
    app.use(
      "/passed",
      stepMiddleware(async () => undefined),
    );
    app.get("*", () => new Response("ok"));

    expect((await app.request("/refused")).status).toBe(403);
    expect(await (await app.request("/passed")).text()).toBe("ok");
  });
});
