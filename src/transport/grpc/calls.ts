import { Metadata, type ServiceError } from '@grpc/grpc-js';
import type { AppError } from '../../errors.js';
import {
  isAcceptableRequestId,
  newRequestId,
  requestIdReplacedHeader,
  requestIdReplacedReason,
} from '../http/request-id.js';
import { wireErrorString } from '../wire-errors.js';
import { grpcStatusOf } from './status.js';
import { unusableRequestIdKey } from './unusable-request-ids.js';

export function metadataText(metadata: Metadata, name: string): string | undefined {
  const value = metadata.get(name)[0];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function requestIdOf(metadata: Metadata): string {
  const given = metadataText(metadata, 'x-request-id');
  return given !== undefined && isAcceptableRequestId(given) ? given : newRequestId();
}

/** "ipv4:127.0.0.1:5000" / "ipv6:[::1]:5000" -> the bare address the keyless limit counts. */
export function peerIp(peer: string): string {
  const withoutScheme = peer.replace(/^ipv[46]:/, '');
  const bracketed = /^\[([^\]]+)\]/.exec(withoutScheme);
  if (bracketed) return bracketed[1] as string;
  const lastColon = withoutScheme.lastIndexOf(':');
  return lastColon > 0 ? withoutScheme.slice(0, lastColon) : withoutScheme;
}

/** The answer's initial metadata: its request id, and whether the id the client sent was replaced. */
export function requestIdMetadata(requestId: string, sent: Metadata): Metadata {
  const metadata = new Metadata();
  metadata.set('x-request-id', requestId);
  const given = metadataText(sent, 'x-request-id');
  if (
    (given !== undefined && given !== requestId) ||
    metadataText(sent, unusableRequestIdKey) === '1'
  )
    metadata.set(requestIdReplacedHeader, requestIdReplacedReason);
  return metadata;
}

/** An AppError as a gRPC status: the REST Error object's fields travel as trailers. */
export function grpcErrorOf(error: AppError, requestId: string): Partial<ServiceError> {
  const metadata = new Metadata();
  metadata.set('error', wireErrorString(error));
  metadata.set('request_id', requestId);
  for (const [name, value] of Object.entries(error.details)) metadata.set(name, String(value));
  return { code: grpcStatusOf[error.code], details: error.message, metadata };
}
