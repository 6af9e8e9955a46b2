import { fileURLToPath } from 'node:url';
import {
  loadPackageDefinition,
  type GrpcObject,
  type ServiceClientConstructor,
} from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';

export const protoPath = fileURLToPath(
  new URL('../../../proto/ibanqa/v1/ibanqa.proto', import.meta.url),
);

/**
 * keepCase: field names stay snake_case, exactly as in JSON. defaults: false, so an absent optional field
 * is undefined (not 0 or ''), and the same JSON Schema defaults apply as over REST. enums as strings; oneofs off
 * because proto3 `optional` fields would otherwise surface as synthetic '_name' keys (we declare no real oneof).
 */
export const protoLoaderOptions = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: false,
  oneofs: false,
} as const;

export function loadIbanQaPackage(): {
  definition: PackageDefinition;
  service: ServiceClientConstructor;
} {
  const definition = loadSync(protoPath, protoLoaderOptions);
  const root = loadPackageDefinition(definition) as GrpcObject;
  const v1 = (root.ibanqa as GrpcObject).v1 as GrpcObject;
  return { definition, service: v1.IbanQa as ServiceClientConstructor };
}
