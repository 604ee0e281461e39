import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { headerOf } from './server.ts';

/** A strong tag of an answer's bytes. */
export function bytesTag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/**
 * Sets the ETag, and answers 304 without a body when the caller's If-None-Match already names
 * it (pollers re-read only what changed); false when the answer must be sent.
 */
export function sendNotModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag);
  const offered = headerOf(request, 'if-none-match');
  if (offered === undefined) return false;
  // Weak comparison (RFC 9110, 13.1.2): W/ prefixes do not matter for If-None-Match.
  const matches =
    offered === etag ||
    offered
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === etag || tag === '*');
  if (!matches) return false;
  reply.code(304).send();
  return true;
}
