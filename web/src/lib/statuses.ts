/** Status enumerations and receipt types of @smm/contracts (see contracts.ts for why the path). */
export {
  AutoOrderStatus,
  ChargeStatus,
  OrderStatus,
  receiptTypeLabels,
  receiptTypes,
} from '../../../packages/contracts/src/statuses.ts';
export type { AuthState, ReceiptType } from '../../../packages/contracts/src/statuses.ts';
