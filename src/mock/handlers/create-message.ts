import { randomUUID } from 'node:crypto';
import type { Handler } from '../handler.js';

/**
 * The quickstart's POST /messages. Its success status is not shown (the contract says 2XX); the mock answers
 * 202 Accepted because a new message is only queued. Messages are not kept: nothing reads them back.
 */
export const createMessage: Handler = ({ body }) => {
  const { message } = body as { message: string };
  const accepted = {
    id: `msg_${randomUUID().replace(/-/g, '')}`,
    message,
    status: 'queued',
    createdAt: new Date().toISOString(),
  };
  return { status: 202, body: JSON.stringify(accepted) };
};
