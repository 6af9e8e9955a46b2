import { Type } from '@sinclair/typebox';

/**
 * The envelope every /us/routing answer shares with the bank-intelligence answers: success, and the API
 * credits this request was charged (0 for the free calls; 0 on a replay, which debits nothing).
 */
export const usEnvelopeSchemas = {
  success: Type.Literal(true),
  charged_api_credits: Type.Integer({
    minimum: 0,
    description: 'API credits this request was charged (0 on a replay)',
  }),
};

export function usEnvelope(chargedApiCredits: number): {
  success: true;
  charged_api_credits: number;
} {
  return { success: true, charged_api_credits: chargedApiCredits };
}
