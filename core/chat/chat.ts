/** Chat messages of the REST API (PUT /v4/chatpostmessage). */

export interface ChatMessage {
  channel: string;
  from_user: string;
  msg: string;
  emoji?: string;
}

export interface ChatPoster {
  postMessage(message: ChatMessage): Promise<void>;
}
