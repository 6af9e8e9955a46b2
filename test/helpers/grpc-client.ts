import { credentials, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadIbanQaPackage } from '../../src/transport/grpc/proto.js';

export type IbanQaClient = Client & Record<string, (...args: any[]) => any>;

export function grpcClient(address: string): IbanQaClient {
  const { service } = loadIbanQaPackage();
  return new service(address, credentials.createInsecure()) as unknown as IbanQaClient;
}

export function keyMetadata(key: string | undefined, extra: Record<string, string> = {}): Metadata {
  const metadata = new Metadata();
  if (key !== undefined) metadata.set('x-api-key', key);
  for (const [name, value] of Object.entries(extra)) metadata.set(name, value);
  return metadata;
}

export interface UnaryReply {
  readonly error: ServiceError | null;
  readonly response: any;
}

export function unary(
  client: IbanQaClient,
  method: string,
  request: unknown,
  metadata: Metadata,
): Promise<UnaryReply> {
  return new Promise((resolve) => {
    client[method]!(request, metadata, (error: ServiceError | null, response: unknown) =>
      resolve({ error, response }),
    );
  });
}
