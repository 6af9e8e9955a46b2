import { Type } from '@sinclair/typebox';

/** The wire shape of a cited public document (src/domain/sources/citations.ts). */
export const citationSchema = Type.Object({
  title: Type.String(),
  issuer: Type.String(),
  document: Type.Union([Type.String(), Type.Null()], {
    description: 'Document number and version as the issuer writes them',
  }),
  section: Type.Union([Type.String(), Type.Null()], {
    description: 'Where in the document; null when no section can be named with confidence',
  }),
  url: Type.String({ description: 'https URL of the document or of the page that publishes it' }),
});
