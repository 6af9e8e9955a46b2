import { after, before } from 'node:test';
import { credentials, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadIbanQaPackage } from '../../src/transport/grpc/proto.js';
import { startTestService, type TestService } from './service.js';

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

export interface ServiceWithClient {
  readonly service: TestService;
  readonly client: IbanQaClient;
}

/**
 * Hooks for the tests of a file (or of a describe block): one test service and one grpc-js client to it, started
 * before them and closed after them. `use` receives both once they are up.
 */
export function withServiceAndGrpcClient(use: (started: ServiceWithClient) => void): void {
  let started: ServiceWithClient | undefined;
  before(async () => {
    const service = await startTestService();
    started = { service, client: grpcClient(service.grpcAddress) };
    use(started);
  });
  after(async () => {
    started?.client.close();
    await started?.service.dispose();
  });
}
