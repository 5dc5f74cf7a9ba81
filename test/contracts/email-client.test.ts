import { createSmtpClient } from "../../core/adapters/smtp/smtp-client.ts";
import { emailConfig } from "../helpers/alert-configs.ts";
import { describeEmailClientContract } from "./email-client.contract.ts";

describeEmailClientContract("SMTP (nodemailer)", (port) =>
  createSmtpClient(emailConfig({ smtp: { host: "127.0.0.1", port, timeoutSeconds: 5 } }).smtp),
);
