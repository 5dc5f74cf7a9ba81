/**
 * One broker publication, topic and payload text: what the UDP pipelines, the pollers, the
 * licence monitor and the records of task runs hand to the process's one broker connection.
 */
export interface BrokerMessage {
  readonly topic: string;
  readonly payload: string;
}
