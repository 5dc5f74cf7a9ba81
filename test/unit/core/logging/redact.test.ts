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

describe("redactText on long remote text", () => {
  it("masks the secret in the first part of 50 kB of a-a-… and cuts the rest, saying how much", () => {
    const head = "550 rejected for https://mailer:hunter22@smtp.example password=s3cret";
    const input = `${head} ${"a-".repeat(25_000)}`;

    const output = redactText(input);

    expect(output).toBe(
      `550 rejected for https://[REDACTED]@smtp.example password=[REDACTED]… (${input.length - head.length} more characters not shown)`,
    );
  });

  it("keeps and masks text up to 8,192 characters, and never shows the first half of a secret cut at the limit", () => {
    const filler = "x ".repeat(4000);
    const cutInside = `${filler}password=${"s".repeat(500)}`;

    expect(redactText(`${filler}token=abc`)).toBe(`${filler}token=[REDACTED]`);
    expect(redactText(cutInside)).toBe(
      `${filler.trimEnd()}… (${cutInside.length - 7999} more characters not shown)`,
    );
    expect(redactText(cutInside)).not.toContain("sss");
  });

  it.each([
    ["a run of key characters", "pwd-".repeat(12_000)],
    ["quoted keys", '"pwd":'.repeat(8000)],
    ["URL schemes", "a.".repeat(25_000)],
  ])("handles 50 kB of %s, masking what it keeps", (_label, text) => {
    const output = redactText(`password=hunter22 ${text}`);

    expect(output).toBe(`password=[REDACTED]… (${text.length + 1} more characters not shown)`);
  });
});
