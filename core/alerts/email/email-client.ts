/**
 * The port alert emails go out through (core/adapters/smtp/smtp-client.ts is the SMTP one): one
 * message to one recipient, so that recipients never see each other's addresses. Its contract
 * suite is test/contracts/email-client.contract.ts.
 */

export interface OutgoingEmail {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly priority: "high" | "normal" | "low";
}

export interface EmailClient {
  /** Resolves once the server accepted the message; rejects with the server's or the connection's error. */
  send(email: OutgoingEmail): Promise<void>;
  /** Releases what the client holds (at shutdown); a send after it is not expected. */
  close(): void;
}
