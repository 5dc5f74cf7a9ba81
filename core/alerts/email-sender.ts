/**
 * The port alert emails go out through (core/adapters/smtp/smtp-client.ts is the SMTP one): one
 * message to one recipient, so that recipients never see each other's addresses.
 */

export interface OutgoingEmail {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly priority: "high" | "normal" | "low";
}

export interface EmailSender {
  /** Resolves once the server accepted the message; rejects with the server's or the connection's error. */
  send(email: OutgoingEmail): Promise<void>;
  /** Closes the pooled connections (at shutdown). */
  close(): void;
}
