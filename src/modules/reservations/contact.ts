import type { ContactKind } from './tables.ts';

/** A message to a booker's email address or phone number. */
export interface ContactMessage {
  kind: ContactKind;
  to: string;
  subject: string;
  text: string;
}

/**
 * The port booking messages leave through (confirmation codes, waitlist offers). The composition
 * root wires one from configuration; the default writes to the log, for development.
 */
export interface ContactSender {
  send(message: ContactMessage): Promise<void>;
}

/** Development's sender: the message goes to the service's log, where whoever runs it reads the code. */
export class LogContactSender implements ContactSender {
  constructor(private readonly log: (line: string) => void = (line) => console.info(line)) {}

  async send(message: ContactMessage): Promise<void> {
    this.log(`[reservations] to ${message.kind} ${message.to}: ${message.subject}\n${message.text}`);
  }
}
