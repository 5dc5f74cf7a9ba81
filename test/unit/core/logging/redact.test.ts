import { describe, expect, it } from "vitest";
import { redactText } from "../../../../core/logging/redact.ts";

describe("redactText", () => {
  it.each([
    [
      "connect failed http://admin:s3cret@influx.local:8086/write",
      "http://[REDACTED]@influx.local:8086/write",
      "s3cret",
    ],
    ["header Authorization: Bearer abcdefgh12345678", "Bearer [REDACTED]", "abcdefgh12345678"],
    ["Token tok_9f8e7d6c5b4a", "Token [REDACTED]", "tok_9f8e7d6c5b4a"],
    ['{"apiToken":"hunter22","port":8181}', '"apiToken":"[REDACTED]"', "hunter22"],
    ["password=p4ss&user=bob", "password=[REDACTED]", "p4ss"],
    ["clientCertPassphrase: open-sesame", "clientCertPassphrase: [REDACTED]", "open-sesame"],
    ["insertApiKey=NRAK-123456", "insertApiKey=[REDACTED]", "NRAK-123456"],
  ])("masks the secret in %j", (input, expected, secret) => {
    const output = redactText(input);
    expect(output).toContain(expected);
    expect(output).not.toContain(secret);
  });

  it("leaves ordinary text alone", () => {
    const text = "listen EADDRINUSE: address already in use 127.0.0.1:8081 at Server.listen (node:net:1234)";
    expect(redactText(text)).toBe(text);
  });
});
