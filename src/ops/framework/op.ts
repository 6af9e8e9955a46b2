// The op contract lives in src/contract/ (the layers below ops read it too); ops declare themselves through it.
export * from '../../contract/op.js';
