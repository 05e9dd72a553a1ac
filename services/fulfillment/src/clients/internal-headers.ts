import { serviceAuthHeaders } from '@smm/platform';

/**
 * The identity fulfillment presents to other services: a short-lived signed service credential
 * (issuer fulfillment) acting as an operator, since what it changes there (an order's status, a
 * product's price) are operators' changes. A fresh credential per call: they live 60 seconds.
 */
export function operatorHeaders(secret: string, to: 'order' | 'catalog'): Record<string, string> {
  return serviceAuthHeaders(secret, { from: 'fulfillment', to, userId: 'fulfillment', role: 'admin' });
}
